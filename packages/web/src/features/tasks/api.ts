// The async task list: GET /api/task/ for admins, /api/task/self otherwise; times in seconds.
import type { RecordListSpec } from './record-list';

export const TASK_LIST: RecordListSpec = {
  adminPath: '/api/task/',
  selfPath: '/api/task/self',
  idFilter: 'task_id',
  timeUnit: 's',
};
