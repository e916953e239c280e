import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@opencvr/shared';
import { currentLang, setLang } from '../i18n';

/** 中文 / English, saved to localStorage `language`. */
export function LanguageSwitch({ size = 'small' }: { size?: 'small' | 'middle' }) {
  useTranslation();
  return (
    <Segmented<Lang>
      size={size}
      value={currentLang()}
      options={[
        { label: '中文', value: 'zh-CN' },
        { label: 'English', value: 'en-US' },
      ]}
      onChange={(v) => setLang(v)}
    />
  );
}
