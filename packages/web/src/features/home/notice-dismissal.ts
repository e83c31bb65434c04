// Which announcement the visitor closed. The text itself is remembered, so the same announcement
// stays closed on every later visit and any change to it shows again.
import { STORAGE_KEYS, readString, writeString } from '../../lib/storage';

export const readDismissedNotice = (): string | null => readString(STORAGE_KEYS.notice);

export const dismissNotice = (notice: string): void => writeString(STORAGE_KEYS.notice, notice);

/** Whether an announcement is to be shown: it says something and is not the one last closed. */
export const shouldShowNotice = (notice: string, dismissed: string | null): boolean =>
  notice.trim() !== '' && notice !== dismissed;
