/**
 * i18next set up once with both languages bundled (they are small), Chinese by default.
 * The chosen language is kept in localStorage so it survives a reload and the login page.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS, ScheduleError, message, reason, type Lang, type MessageKey } from '@opencvr/shared';
import zhCN from './zh-CN';
import enUS from './en-US';
import { dayjsFollows } from './dayjsLocale';

export const LANGS: Lang[] = ['zh-CN', 'en-US'];

function storedLang(): Lang {
  try {
    const v = localStorage.getItem(STORAGE_KEYS.language);
    return v === 'en-US' ? 'en-US' : 'zh-CN';
  } catch {
    return 'zh-CN';
  }
}

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: storedLang(),
  fallbackLng: 'zh-CN',
  interpolation: { escapeValue: false },
  initAsync: false,
});
dayjsFollows(i18n);
// index.html says zh-CN: a console reloaded in English must say so too (fonts, screen readers).
if (typeof document !== 'undefined') document.documentElement.lang = currentLang();

export function currentLang(): Lang {
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

export function setLang(lang: Lang): void {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

/** A spec message (shared catalogue) in the current language. */
export function msg(key: MessageKey, vars?: Record<string, string | number>): string {
  return message(key, currentLang(), vars);
}

/** An error the console itself threw, in the current language: a schedule's reason (shared catalogue), else its message. */
export function errorMessage(err: unknown): string {
  if (err instanceof ScheduleError) return reason(err.reason.key, currentLang(), err.reason.vars);
  return err instanceof Error ? err.message : String(err);
}

export default i18n;
