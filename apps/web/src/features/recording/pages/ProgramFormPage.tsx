/**
 * /config/program/form (?id=N edits): a recording plan: name, save days, enabled, channels (the
 * shared channel picker) and the weekly schedule. Before saving, the schedule is checked by the
 * server (checkpush) and its per-day lists are shown. A refusal of the server is said where it
 * belongs: a refused parameter at its field (name, save days, the schedule editor, the channels), a
 * taken name at the name (录像计划 office 已存在), anything else as a notice (fieldRefusal.ts).
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Empty, Form, Input, InputNumber, Space, Spin, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { fromNormal, WEEKDAYS, type DayLists, type NormalSchedule } from '@opencvr/shared';
import { ChannelPicker } from '../../../components/ChannelPicker';
import { PageTitle } from '../../../components/PageTitle';
import { usePhone } from '../../../components/usePhone';
import { errorMessage, msg } from '../../../i18n';
import { sayRefusal, type RefusalPlace } from '../../../lib/fieldRefusal';
import { notify } from '../../../lib/notify';
import { RequestError } from '../../../lib/request';
import { checkSchedule, fetchPlan, planEnabled, SAVE_DAYS, savePlan, type PlanChannel } from '../api';
import { PlanChannelsTable, recordOff } from '../components/PlanChannelsTable';
import { ScheduleEditor } from '../components/ScheduleEditor';
import { planFormReturn } from '../planFormLink';
import { emptyModel, isEmpty, modelOf } from '../scheduleModel';

interface FormValues {
  name: string;
  save_days: number;
  enable: boolean;
}

export default function ProgramFormPage() {
  const { t } = useTranslation();
  const phone = usePhone();
  const navigate = useNavigate();
  // Saving or cancelling goes back where the form was opened (the recording settings or the plans list).
  const back = planFormReturn(useLocation().state);
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || undefined;
  const [form] = Form.useForm<FormValues>();
  const [schedule, setSchedule] = useState<NormalSchedule>(emptyModel());
  const [channels, setChannels] = useState<PlanChannel[]>([]);
  const [picking, setPicking] = useState(false);
  const [checked, setChecked] = useState<DayLists | null>(null);
  const [saving, setSaving] = useState(false);
  // The server's reason for refusing the schedule or the channels, shown at them until they change.
  const [refused, setRefused] = useState<{ schedule?: string; channels?: string }>({});
  const places: Partial<Record<string, RefusalPlace<FormValues>>> = {
    name: 'name',
    save_days: 'save_days',
    schedule: (words) => setRefused((r) => ({ ...r, schedule: words })),
    channels: (words) => setRefused((r) => ({ ...r, channels: words })),
  };
  const sayFailure = (err: unknown) => {
    if (err instanceof RequestError) sayRefusal(err, form, places, 'name');
    else notify.error(errorMessage(err));
  };

  const plan = useQuery({ queryKey: ['recordplan', id], queryFn: () => fetchPlan(id!), enabled: !!id });
  useEffect(() => {
    const p = plan.data;
    if (!p) return;
    form.setFieldsValue({ name: p.Name, save_days: p.SaveDays, enable: planEnabled(p) });
    setSchedule(modelOf(p.Schedule));
    setChannels(p.Channels ?? []);
  }, [plan.data, form]);
  useEffect(() => {
    setChecked(null);
    setRefused((r) => (r.schedule ? { ...r, schedule: undefined } : r));
  }, [schedule]);
  useEffect(() => setRefused((r) => (r.channels ? { ...r, channels: undefined } : r)), [channels]);
  // A plan only times the channels whose own recording switch is on (the server records a channel
  // when EnableRecord is set, by its plans): the others are flagged, or the plan seems to do nothing.
  const offCount = channels.filter(recordOff).length;
  // Binding a channel to a plan says "record it": its switch is turned on with the plan unless unticked.
  const [turnOn, setTurnOn] = useState(true);

  const submit = async (v: FormValues) => {
    if (isEmpty(schedule)) {
      notify.warning(t('recording.scheduleEmpty'));
      return;
    }
    setSaving(true);
    try {
      const api = fromNormal(schedule);
      const check = await checkSchedule(api);
      setChecked(check.Days);
      await savePlan({ id, name: v.name.trim(), save_days: v.save_days, enable: v.enable, schedule: api, channels, enable_record: turnOn && offCount > 0 ? 1 : undefined });
      notify.success(msg('success'));
      void qc.invalidateQueries({ queryKey: ['recordplans'] });
      navigate(back);
    } catch (err) {
      sayFailure(err);
    } finally {
      setSaving(false);
    }
  };

  if (id && plan.isLoading) return <Spin style={{ margin: 48 }} />;

  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={id ? t('recording.editPlan') : t('recording.addPlan')} />
      <Card>
        <Form<FormValues> form={form} layout="horizontal" labelCol={{ flex: '165px' }} initialValues={{ name: '', save_days: 30, enable: true }} onFinish={(v) => void submit(v)}>
          <Form.Item name="name" label={t('recording.planName')} rules={[{ required: true, whitespace: true, message: t('recording.nameRequired') }, { max: 128 }]}>
            <Input style={{ maxWidth: 360 }} />
          </Form.Item>
          {/* Out of range said with the range, as /config/recording does: min/max on the input turned a typed 0 into 1 and saved it. */}
          <Form.Item
            name="save_days"
            label={t('recording.saveDays')}
            rules={[
              { required: true, message: t('recording.saveDaysRequired') },
              { type: 'number', ...SAVE_DAYS, message: t('recording.saveDaysRange', SAVE_DAYS) },
            ]}
            extra={t('recording.saveDaysHint')}
          >
            <InputNumber precision={0} addonAfter={t('recording.dayUnit')} data-testid="plan-save-days" />
          </Form.Item>
          <Form.Item name="enable" label={t('recording.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            label={t('recording.channels')}
            validateStatus={refused.channels ? 'error' : undefined}
            help={refused.channels}
            extra={
              offCount > 0 && (
                <Space direction="vertical" size={0}>
                  <Checkbox checked={turnOn} onChange={(e) => setTurnOn(e.target.checked)} data-testid="plan-turn-on">
                    {t('recording.turnOnRecording', { count: offCount })}
                  </Checkbox>
                  {!turnOn && <Typography.Text type="warning">{t('recording.recordOffHint')}</Typography.Text>}
                </Space>
              )
            }
          >
            <PlanChannelsTable channels={channels} onChange={setChannels} onPick={() => setPicking(true)} />
          </Form.Item>
          <Form.Item
            label={t('recording.schedule')}
            validateStatus={refused.schedule ? 'error' : undefined}
            help={refused.schedule}
            extra={t(phone ? 'recording.scheduleHintPhone' : 'recording.scheduleHint')}
          >
            <ScheduleEditor value={schedule} onChange={setSchedule} />
          </Form.Item>
          {checked && (
            <Form.Item label={t('recording.checked')}>
              {/* In the console's language: an English page read "Monday: —；Tuesday: —" with Chinese semicolons. */}
              <Alert
                type="success"
                data-testid="plan-checked"
                title={WEEKDAYS.map((d) => t('recording.checkedDay', { day: t(`recording.days.${d}`), slots: checked[d].map((s) => `${s.sTime}-${s.eTime}`).join(', ') || '—' })).join(t('recording.summarySep'))}
              />
            </Form.Item>
          )}
          <Form.Item label=" " colon={false}>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="plan-save">
                {t('common.save')}
              </Button>
              <Button
                onClick={async () => {
                  try {
                    setChecked((await checkSchedule(fromNormal(schedule))).Days);
                  } catch (err) {
                    sayFailure(err);
                  }
                }}
              >
                {t('recording.check')}
              </Button>
              <Button onClick={() => navigate(back)}>{t('common.cancel')}</Button>
            </Space>
          </Form.Item>
        </Form>
        {id && !plan.data && !plan.isLoading && <Empty />}
      </Card>
      <ChannelPicker
        open={picking}
        mode="channels"
        title={t('recording.pickChannels')}
        onCancel={() => setPicking(false)}
        onOk={({ channels: picked }) => {
          const have = new Set(channels.map((c) => `${c.DeviceID}:${c.ChannelID}`));
          const added = picked.filter((c) => !have.has(`${c.DeviceID}:${c.ChannelID}`)).map((c) => ({ ...c, id: `${c.DeviceID}:${c.ChannelID}` }));
          setChannels([...channels, ...added]);
          setPicking(false);
        }}
      />
    </div>
  );
}
