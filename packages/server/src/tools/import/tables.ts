// The tables the import brings over, in the order it brings them (accounts before what refers to
// them). Each spec says how one one-api/new-api row becomes Sluice's; docs/import.md is the prose form.
import { CHANNELS, TOKENS, USERS } from './account-tables.js';
import { LOGS, MIDJOURNEYS, QUOTA_DATA, REDEMPTIONS, TASKS, TOP_UPS } from './record-tables.js';
import type { TableSpec } from './table-spec.js';

export const TABLES: readonly TableSpec[] = [
  USERS,
  TOKENS,
  CHANNELS,
  REDEMPTIONS,
  TOP_UPS,
  MIDJOURNEYS,
  TASKS,
  LOGS,
  QUOTA_DATA,
];
