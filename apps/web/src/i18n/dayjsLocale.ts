/**
 * dayjs speaks the console's language. antd's date pickers ask dayjs for week-day and month names
 * (and the first day of the week); without the Chinese locale loaded they fell back to English
 * ("Su Mo ... Nov") in the Chinese console.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { i18n as I18n } from 'i18next';

const DAYJS_LOCALE = { 'zh-CN': 'zh-cn', 'en-US': 'en' } as const;

/** Sets dayjs's global locale now and again whenever the console's language changes. */
export function dayjsFollows(i18n: I18n): void {
  const apply = (lng: string) => dayjs.locale(lng === 'en-US' ? DAYJS_LOCALE['en-US'] : DAYJS_LOCALE['zh-CN']);
  apply(i18n.language);
  i18n.on('languageChanged', apply);
}
