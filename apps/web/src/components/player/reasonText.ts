/**
 * Why the server says a stream is not playing, in the console's language: the catalogue reason the
 * live socket sent with it (`why`), through the shared streamReasonText
 * (packages/shared/src/stream-reasons.ts), which the server also answers with. A text the server
 * already wrote in a language comes back as it is.
 */
import type { TFunction } from 'i18next';
import { streamReasonText, type Reason } from '@opencvr/shared';
import { currentLang } from '../../i18n';

export function reasonText(reason: string, t: TFunction, why?: Reason): string {
  // A fixed-language t (getFixedT) says which; the console's own t follows the current language.
  const lng = (t as unknown as { lng?: string }).lng;
  return streamReasonText(reason, lng ? (lng === 'en-US' ? 'en-US' : 'zh-CN') : currentLang(), why);
}
