// dayjs in the console's language. Pages that show dates import dayjs from here, so the locale
// (and its weight) loads only with them.
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { i18n } from '../i18n';

const apply = (language: string) => void dayjs.locale(language === 'zh-CN' ? 'zh-cn' : 'en');
apply(i18n.language);
i18n.on('languageChanged', apply);

export { dayjs };

/** Unix seconds as local date and time; 0 or less shows a dash. */
export const formatTimestamp = (unixSeconds: number): string =>
  unixSeconds > 0 ? dayjs.unix(unixSeconds).format('YYYY-MM-DD HH:mm:ss') : '-';
