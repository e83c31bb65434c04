// Texts of the async task page (and the task statuses the drawing page shares), hooked into
// i18n/sections.ts under `tasks`.

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

export const tasksEn = {
  title: 'Async tasks',
  details: 'Task details',
  filter: { taskId: 'Task ID' },
  column: {
    submitTime: 'Submitted',
    startTime: 'Started',
    finishTime: 'Finished',
    duration: 'Duration',
    channel: 'Channel',
    platform: 'Platform',
    action: 'Type',
    taskId: 'Task ID',
    status: 'Status',
    progress: 'Progress',
    failReason: 'Failure reason',
    data: 'Result data',
  },
  platform: { suno: 'Suno' },
  action: { MUSIC: 'Generate music', LYRICS: 'Generate lyrics' },
  status: {
    SUCCESS: 'Success',
    NOT_START: 'Not started',
    SUBMITTED: 'Queued',
    IN_PROGRESS: 'In progress',
    FAILURE: 'Failed',
    MODAL: 'Waiting for input',
    QUEUED: 'Queued',
    UNKNOWN: 'Unknown',
    submitting: 'Submitting',
  },
};

export const tasksZhCN: Strings<typeof tasksEn> = {
  title: '异步任务',
  details: '任务详情',
  filter: { taskId: '任务 ID' },
  column: {
    submitTime: '提交时间',
    startTime: '开始时间',
    finishTime: '结束时间',
    duration: '花费时间',
    channel: '渠道',
    platform: '平台',
    action: '类型',
    taskId: '任务 ID',
    status: '任务状态',
    progress: '进度',
    failReason: '失败原因',
    data: '结果数据',
  },
  platform: { suno: 'Suno' },
  action: { MUSIC: '生成音乐', LYRICS: '生成歌词' },
  status: {
    SUCCESS: '成功',
    NOT_START: '未启动',
    SUBMITTED: '队列中',
    IN_PROGRESS: '执行中',
    FAILURE: '失败',
    MODAL: '窗口等待',
    QUEUED: '排队中',
    UNKNOWN: '未知',
    submitting: '提交中',
  },
};
