// The drawing list: GET /api/mj/ for admins, /api/mj/self/ otherwise; times in milliseconds.
import type { RecordListSpec } from '../tasks/record-list';

export const DRAWING_LIST: RecordListSpec = {
  adminPath: '/api/mj/',
  selfPath: '/api/mj/self/',
  idFilter: 'mj_id',
  timeUnit: 'ms',
};
