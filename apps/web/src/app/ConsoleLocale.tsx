/** antd's own words (pickers, pagination, empty tables) in the console's language, switching with it. */
import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';

export function ConsoleLocale({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <ConfigProvider locale={i18n.language === 'en-US' ? enUS : zhCN}>{children}</ConfigProvider>;
}
