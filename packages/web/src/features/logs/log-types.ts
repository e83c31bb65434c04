// Log types (spec part 2 §4): their names in the type filter and the colour of their tag.
import { LOG_TYPE } from '@sluice/shared';

export type LogTypeName = 'all' | 'topup' | 'consume' | 'manage' | 'system' | 'error';

/** The filter's choices, in the order the dropdown lists them. */
export const LOG_TYPE_CHOICES: Array<{ value: number; name: LogTypeName }> = [
  { value: LOG_TYPE.all, name: 'all' },
  { value: LOG_TYPE.topup, name: 'topup' },
  { value: LOG_TYPE.consume, name: 'consume' },
  { value: LOG_TYPE.manage, name: 'manage' },
  { value: LOG_TYPE.system, name: 'system' },
  { value: LOG_TYPE.error, name: 'error' },
];

const TAGS: Record<number, { name: Exclude<LogTypeName, 'all'>; colour: string }> = {
  [LOG_TYPE.topup]: { name: 'topup', colour: 'cyan' },
  [LOG_TYPE.consume]: { name: 'consume', colour: 'green' },
  [LOG_TYPE.manage]: { name: 'manage', colour: 'orange' },
  [LOG_TYPE.system]: { name: 'system', colour: 'purple' },
  [LOG_TYPE.error]: { name: 'error', colour: 'red' },
};

export function logTypeTag(type: number): { name: Exclude<LogTypeName, 'all'> | 'unknown'; colour: string } {
  return TAGS[type] ?? { name: 'unknown', colour: 'default' };
}
