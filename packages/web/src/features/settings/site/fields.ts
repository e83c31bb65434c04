// The description a settings card is rendered from, and the pure rules around it: how a stored option
// string becomes a form value and back, what counts as changed, and how a save turns out.
import { OPTION_DEFS, isSecretOption } from '@sluice/shared';
import type { OptionKey } from '@sluice/shared';
import type { ComponentType } from 'react';
import { siteSettingsEn } from './i18n';

export type FieldKind = 'switch' | 'input' | 'number' | 'textarea' | 'json' | 'select' | 'tags';
/** Every field has a label in i18n (siteSettings.fields.<key>). */
export type SiteFieldKey = keyof typeof siteSettingsEn.fields & OptionKey;
export type CardKey = keyof typeof siteSettingsEn.cards;
export type HelpKey = keyof typeof siteSettingsEn.help;
export type DataExportTime = keyof typeof siteSettingsEn.dataExportTime;

export interface FieldDesc {
  key: SiteFieldKey;
  kind: FieldKind;
  /** number: the smallest value accepted (default 0). Integers follow the option registry. */
  min?: number;
  /** select: the values offered, labelled by siteSettings.dataExportTime.<value> (the only select). */
  choices?: { values: readonly DataExportTime[] };
  /** switch: ask before turning it off (only password login, whose dialog explains the lock-out risk). */
  confirmOff?: boolean;
  /** textarea/json: visible rows. */
  rows?: number;
  /** textarea: a preview button renders the text as the site will. */
  preview?: 'markdown' | 'html';
}

/** Option values as GET /api/option/ lists them (secrets are never listed). */
export type StoredOptions = Record<string, string>;

export interface CardExtraProps {
  stored: StoredOptions;
}

export interface CardDesc {
  key: CardKey;
  fields: FieldDesc[];
  /** Checked before anything is sent; a msg key when saving must not go ahead. */
  beforeSave?: (stored: StoredOptions) => 'fillServerAddressFirst' | null;
  /** Actions below the fields that are not option values (log purge, ratio reset). */
  extra?: ComponentType<CardExtraProps>;
}

export const hasHelp = (key: string): key is HelpKey => Object.hasOwn(siteSettingsEn.help, key);

/** Secrets are write-only: shown empty, and an empty input means "keep the current one". */
export const isSecretField = (field: FieldDesc): boolean => isSecretOption(field.key);

export const isIntegerField = (field: FieldDesc): boolean => OPTION_DEFS[field.key].kind === 'int';

export type FormValue = string | number | boolean | string[] | null | undefined;

export function toFormValue(field: FieldDesc, raw: string | undefined): FormValue {
  if (isSecretField(field)) return '';
  const text = raw ?? '';
  switch (field.kind) {
    case 'switch':
      return text === 'true';
    case 'number':
      return text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text);
    case 'tags':
      return splitList(text);
    case 'json':
      return reformatJson(text, 2);
    default:
      return text;
  }
}

/** JSON is shown indented and sent compact; text that does not parse is left as typed. */
function reformatJson(text: string, indent?: number): string {
  try {
    return JSON.stringify(JSON.parse(text), null, indent);
  } catch {
    return text;
  }
}

/** A stored string in the form toWireValue produces, so that re-indented JSON is not a change. */
export const storedWire = (field: FieldDesc, raw: string | undefined): string =>
  field.kind === 'json' ? reformatJson(raw ?? '') : (raw ?? '');

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The wire string of a form value (options always travel as strings). */
export function toWireValue(field: FieldDesc, value: FormValue): string {
  switch (field.kind) {
    case 'switch':
      return value === true ? 'true' : 'false';
    case 'number':
      return value === null || value === undefined || value === '' ? '' : String(value);
    case 'tags':
      return (Array.isArray(value) ? value : splitList(String(value ?? '')))
        .map((item) => item.trim())
        .filter((item) => item !== '')
        .join(',');
    case 'json':
      return reformatJson(String(value ?? ''));
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

export interface OptionChange {
  key: OptionKey;
  value: string;
}

/**
 * The keys whose value differs from what is stored, in the card's order, switches last: a switch
 * that needs credentials (GitHub login needs its client id) is sent after them.
 */
export function changedOptions(
  fields: FieldDesc[],
  values: Record<string, FormValue>,
  stored: StoredOptions,
): OptionChange[] {
  const changes: Array<OptionChange & { isSwitch: boolean }> = [];
  for (const field of fields) {
    const wire = toWireValue(field, values[field.key]);
    const changed = isSecretField(field) ? wire !== '' : wire !== storedWire(field, stored[field.key]);
    if (changed) changes.push({ key: field.key, value: wire, isSwitch: field.kind === 'switch' });
  }
  return [...changes.filter((c) => !c.isSwitch), ...changes.filter((c) => c.isSwitch)].map(
    ({ key, value }) => ({ key, value }),
  );
}

export interface SaveResult {
  saved: OptionChange[];
  failed: Array<OptionChange & { reason: string }>;
}

/** One PUT per key, one after another (a later key may depend on an earlier one); failures do not stop the rest. */
export async function saveChanges(
  changes: OptionChange[],
  put: (change: OptionChange) => Promise<unknown>,
): Promise<SaveResult> {
  const result: SaveResult = { saved: [], failed: [] };
  for (const change of changes) {
    try {
      await put(change);
      result.saved.push(change);
    } catch (error) {
      result.failed.push({ ...change, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

export type SaveOutcome = 'nothingChanged' | 'saveSuccess' | 'someSavesFailed' | 'saveFailed';

export function saveOutcome(result: SaveResult): SaveOutcome {
  if (result.failed.length === 0) return result.saved.length === 0 ? 'nothingChanged' : 'saveSuccess';
  return result.saved.length === 0 ? 'saveFailed' : 'someSavesFailed';
}
