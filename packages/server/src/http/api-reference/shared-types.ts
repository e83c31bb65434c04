// The answer types the reference names (components.schemas): the zod schemas of packages/shared where
// it has them, small shapes written out, and for the larger TypeScript interfaces the place that
// defines them.
import { channelViewSchema, optionEntrySchema, publicStatusSchema } from '@sluice/shared';
import type { JsonSchema, Shape } from './route-doc.js';

/** A TypeScript interface of `file` (packages/shared/src/api/ when not given whole): where to read its fields. */
const definedIn = (name: string, file: string): JsonSchema => ({
  type: 'object',
  description: `The fields of \`${name}\` in ${file.includes('/') ? file : `packages/shared/src/api/${file}`}.`,
});

const integer: JsonSchema = { type: 'integer' };

export const NAMED_TYPES = {
  PublicStatus: publicStatusSchema,
  OptionEntry: optionEntrySchema,
  ChannelView: channelViewSchema,
  PublicUser: definedIn('PublicUser', 'users.ts'),
  SelfUser: definedIn('SelfUser', 'users.ts'),
  LoginResult: definedIn('LoginResult', 'users.ts'),
  ManageResult: {
    type: 'object',
    properties: {
      status: integer,
      role: integer,
      quota: { type: 'integer', description: 'add_quota only: the quota after the change.' },
    },
    required: ['status', 'role'],
  },
  UserGroups: {
    type: 'object',
    description: 'Group name → its ratio and description.',
    additionalProperties: {
      type: 'object',
      properties: { ratio: { type: 'number' }, desc: { type: 'string' } },
      required: ['ratio', 'desc'],
    },
  },
  TokenView: definedIn('TokenView', 'tokens.ts'),
  RedemptionView: definedIn('RedemptionView', 'redemptions.ts'),
  LogItem: definedIn('LogItem', 'logs.ts'),
  LogStat: {
    type: 'object',
    description: 'Consumption within the filters: total quota, and requests and tokens in the last 60 s.',
    properties: { quota: integer, rpm: integer, tpm: integer },
    required: ['quota', 'rpm', 'tpm'],
  },
  DashboardRow: definedIn('DashboardRow', 'logs.ts'),
  PricingEntry: definedIn('PricingEntry', 'logs.ts'),
  MidjourneyItem: definedIn('MidjourneyItem', 'tasks.ts'),
  TaskItem: definedIn('TaskItem', 'tasks.ts'),
  ChannelCreateResult: {
    type: 'object',
    properties: { ids: { type: 'array', items: integer }, count: integer },
    required: ['ids', 'count'],
  },
  ChannelTestResult: {
    type: 'object',
    properties: { time: { type: 'number', description: 'Seconds the test call took.' } },
    required: ['time'],
  },
  ChannelBalanceSummary: {
    type: 'object',
    properties: { updated: integer, failed: integer },
    required: ['updated', 'failed'],
  },
  ChannelModelEntry: {
    type: 'object',
    properties: { id: { type: 'string' }, object: { const: 'model' }, owned_by: { type: 'string' } },
    required: ['id', 'object', 'owned_by'],
  },
  PayFormFields: definedIn('PayFormFields', 'topup.ts'),
  ReconcileReport: definedIn('ReconcileReport', 'packages/server/src/billing/reconcile.ts'),
  SnapshotResult: {
    type: 'object',
    properties: {
      report: { $ref: '#/components/schemas/ReconcileReport' },
      saved: {
        type: ['integer', 'null'],
        description: 'The time the new snapshot is as of; null when none was stored.',
      },
    },
    required: ['report', 'saved'],
  },
} satisfies Record<string, Shape>;

export type TypeName = keyof typeof NAMED_TYPES;

/** A reference to a named type. */
export const ref = (name: TypeName): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
