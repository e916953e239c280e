/**
 * /config/recording: the record folder (recordpath), segment length, free space to keep and the
 * default save days; the recording plans; and the help topics of spec 2 (recording plan, plan
 * edit, save days).
 */
import { useEffect, useState } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, List, Row, Space, Typography } from 'antd';
import { PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PageTitle } from '../../../components/PageTitle';
import { formatBytes } from '../../../lib/format';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { sayRefusal } from '../../../lib/fieldRefusal';
import { fetchRecordPath, SAVE_DAYS, saveRecordPath } from '../api';
import { PlansTable } from '../components/PlansTable';
import { RECORDING_HELP } from '../helpTopics';
import { openPlanForm } from '../planFormLink';
import { usePlans } from '../usePlans';

const GB = 1024 ** 3;
/**
 * What the inputs take (the server's record config: SegmentSeconds 1-3600, DefaultSaveDays 1-3650
 * (SAVE_DAYS); the spec names no limits). Out of range is said beside the input: the inputs' own min/max changed
 * a typed 0 to the minimum without a word.
 */
const SEGMENT_MINUTES = { min: 0.1, max: 60 };

interface PathForm {
  RecordPath: string;
  SegmentMinutes: number;
  MinFreeGB: number;
  DefaultSaveDays: number;
}

export default function RecordingConfigPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [form] = Form.useForm<PathForm>();
  const [saving, setSaving] = useState(false);
  const path = useQuery({ queryKey: ['recordpath'], queryFn: fetchRecordPath });
  const { list, remove } = usePlans(1);

  const initial = path.data
    ? { RecordPath: path.data.RecordPath, SegmentMinutes: Math.round((path.data.SegmentSeconds / 60) * 100) / 100, MinFreeGB: Math.round((path.data.MinFreeBytes / GB) * 100) / 100, DefaultSaveDays: path.data.DefaultSaveDays }
    : undefined;
  useEffect(() => {
    if (initial) form.setFieldsValue(initial);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path.data, form]);

  const save = async (v: PathForm) => {
    setSaving(true);
    try {
      await saveRecordPath({ RecordPath: v.RecordPath.trim(), SegmentSeconds: Math.round(v.SegmentMinutes * 60), MinFreeBytes: Math.round(v.MinFreeGB * GB), DefaultSaveDays: v.DefaultSaveDays });
      notify.success(msg('success'));
      void path.refetch();
    } catch (err) {
      // A refused folder (relative, a system folder, not writable) is said at the field, in the
      // server's reason (issue 5 walk, session 26: 参数 RecordPath 不合法 came as a notice); the other
      // settings are checked by the form itself, and any other failure is a notice as before.
      sayRefusal(err, form, { RecordPath: 'RecordPath', MinFreeBytes: 'MinFreeGB', SegmentSeconds: 'SegmentMinutes', DefaultSaveDays: 'DefaultSaveDays' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={t('route.configRecording')} />
      <Row gutter={16}>
        <Col xs={24} xl={16}>
          <Card title={t('recording.storage')} loading={path.isLoading}>
            <Form<PathForm> form={form} labelCol={{ flex: '165px' }} onFinish={(v) => void save(v)} initialValues={initial}>
              <Form.Item name="RecordPath" label={t('recording.recordPath')} rules={[{ required: true, whitespace: true, message: t('recording.recordPathRequired') }, { pattern: /^\//, message: t('recording.recordPathAbsolute') }]} extra={path.data ? t('recording.recordPathHint', { def: path.data.Default, free: formatBytes(path.data.FreeBytes) }) : undefined}>
                <Input style={{ maxWidth: 480 }} data-testid="record-path" />
              </Form.Item>
              <Form.Item
                name="SegmentMinutes"
                label={t('recording.segmentLength')}
                rules={[{ required: true, type: 'number', ...SEGMENT_MINUTES, message: t('recording.segmentRange', SEGMENT_MINUTES) }]}
              >
                <InputNumber step={1} addonAfter={t('recording.minutes')} data-testid="segment-minutes" />
              </Form.Item>
              <Form.Item name="MinFreeGB" label={t('recording.keepFree')} rules={[{ required: true }]} extra={t('recording.keepFreeHint')}>
                <InputNumber min={0} step={1} addonAfter="GB" />
              </Form.Item>
              <Form.Item
                name="DefaultSaveDays"
                label={t('recording.defaultSaveDays')}
                rules={[{ required: true, type: 'number', ...SAVE_DAYS, message: t('recording.defaultSaveDaysRange', SAVE_DAYS) }]}
              >
                <InputNumber precision={0} addonAfter={t('recording.dayUnit')} data-testid="default-save-days" />
              </Form.Item>
              <Form.Item label=" " colon={false}>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('common.save')}
                </Button>
              </Form.Item>
            </Form>
          </Card>
          <Card
            title={t('recording.plans')}
            style={{ marginTop: 16 }}
            extra={
              <Space>
                <Link to="/config/program">{t('recording.allPlans')}</Link>
                <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => openPlanForm(navigate, pathname + search)} data-testid="recording-add-plan">
                  {t('recording.addPlan')}
                </Button>
              </Space>
            }
          >
            <PlansTable compact plans={list.data?.Plans ?? []} total={list.data?.Total ?? 0} loading={list.isLoading} onDelete={(p) => void remove(p)} />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title={<Space><QuestionCircleOutlined />{t('recording.helpTitle')}</Space>} data-testid="recording-help">
            <List
              dataSource={[...RECORDING_HELP]}
              renderItem={(h) => (
                <List.Item>
                  <List.Item.Meta
                    title={'to' in h && h.to ? <Link to={h.to}>{t(h.title)}</Link> : t(h.title)}
                    description={<Typography.Text type="secondary">{t(h.description)}</Typography.Text>}
                  />
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
