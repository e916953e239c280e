import { passwordStrength, STRENGTH_THRESHOLDS } from '@opencvr/shared';
import { useTranslation } from 'react-i18next';

const COLORS = { weak: '#ff4d4f', normal: '#faad14', strong: '#52c41a' } as const;

/** Three bars lit at 25/50/75 percent of the strength score, with the level's name. */
export function StrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const { percent, level } = passwordStrength(password);
  return (
    <div data-testid="strength-meter" data-level={password ? level : 'none'} data-percent={percent} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
      {STRENGTH_THRESHOLDS.map((th) => (
        <span
          key={th}
          data-testid="strength-bar"
          data-lit={percent >= th ? 'true' : 'false'}
          style={{ flex: 1, height: 6, borderRadius: 3, background: percent >= th ? COLORS[level] : '#e5e5e5' }}
        />
      ))}
      <span style={{ minWidth: 40, fontSize: 12, color: password ? COLORS[level] : '#999' }}>
        {password ? t(`password.strength.${level}`) : ''}
      </span>
    </div>
  );
}
