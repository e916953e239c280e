/** Where a playback page reads recordings from: the platform's own (Cloud) or the device's (Device). */
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RecordSource } from '../source';

export function RecordSourceSwitch({ value, onChange }: { value: RecordSource; onChange: (v: RecordSource) => void }) {
  const { t } = useTranslation();
  return (
    <Segmented<RecordSource>
      data-testid="record-source"
      value={value}
      onChange={onChange}
      options={[
        { value: 'Cloud', label: t('playback.sourceCloud') },
        { value: 'Device', label: t('playback.sourceDevice') },
      ]}
    />
  );
}
