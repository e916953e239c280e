import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@opencvr/shared';
import { currentLang, setLang } from '../i18n';

const OPTIONS: { label: string; value: Lang }[] = [
  { label: '中文', value: 'zh-CN' },
  { label: 'English', value: 'en-US' },
];

// antd Segmented's look, drawn by hand: the switch is on the login page, and Segmented brings
// antd's tooltip and popup code with it.
const GROUP: CSSProperties = {
  display: 'inline-flex',
  padding: 2,
  gap: 2,
  borderRadius: 6,
  background: '#f5f5f5',
  verticalAlign: 'middle',
};
const item = (selected: boolean, size: 'small' | 'middle'): CSSProperties => ({
  border: 0,
  margin: 0,
  cursor: selected ? 'default' : 'pointer',
  borderRadius: 4,
  padding: size === 'small' ? '0 7px' : '0 11px',
  minHeight: size === 'small' ? 20 : 28,
  lineHeight: size === 'small' ? '20px' : '28px',
  fontSize: 14,
  fontFamily: 'inherit',
  color: selected ? 'rgba(0,0,0,0.88)' : 'rgba(0,0,0,0.65)',
  background: selected ? '#fff' : 'transparent',
  boxShadow: selected
    ? '0 1px 2px 0 rgba(0,0,0,0.03), 0 1px 6px -1px rgba(0,0,0,0.02), 0 2px 4px 0 rgba(0,0,0,0.02)'
    : 'none',
  transition: 'background .2s, color .2s',
});

/** 中文 / English, saved to localStorage `language`. */
export function LanguageSwitch({ size = 'small' }: { size?: 'small' | 'middle' }) {
  useTranslation();
  const lang = currentLang();
  return (
    <div role="radiogroup" aria-label="Language / 语言" style={GROUP} data-testid="language-switch">
      {OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={lang === o.value}
          style={item(lang === o.value, size)}
          onClick={() => {
            if (lang !== o.value) setLang(o.value);
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
