/** /ai/dashboard: the server's real figures, refreshed every 5 s. */
import { Card, Col, Descriptions, Progress, Row, Skeleton, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/PageTitle';
import { formatBytes, formatDuration } from '../../../lib/format';
import { fetchServerInfo, fetchStateDevice, fetchStateTop } from '../api';

const REFRESH_MS = 5000;

function percent(used: number, total: number): number {
  return total > 0 ? Math.round((used / total) * 1000) / 10 : 0;
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: ['serverinfo'], queryFn: fetchServerInfo, refetchInterval: REFRESH_MS });
  const top = useQuery({ queryKey: ['state', 'top'], queryFn: fetchStateTop, refetchInterval: REFRESH_MS });
  const dev = useQuery({ queryKey: ['state', 'device'], queryFn: fetchStateDevice, refetchInterval: REFRESH_MS });
  const units = { d: t('time.d'), h: t('time.h'), m: t('time.m'), s: t('time.s') };

  const s = top.data;
  const i = info.data;
  const d = dev.data;

  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={t('route.aiDashboard')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.cpu')}>
            {s ? <Progress type="dashboard" percent={Math.round(s.cpu * 10) / 10} /> : <Skeleton active paragraph={false} />}
            {i && <div>{`${i.CPUModel} × ${i.CPUCount}`}</div>}
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.memory')}>
            {s ? (
              <>
                <Progress type="dashboard" percent={percent(s.memory.used, s.memory.total)} />
                <div>{`${formatBytes(s.memory.used)} / ${formatBytes(s.memory.total)}`}</div>
              </>
            ) : (
              <Skeleton active paragraph={false} />
            )}
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.disk')}>
            {s ? (
              <>
                <Progress type="dashboard" percent={percent(s.disk.used, s.disk.total)} />
                <div>{`${formatBytes(s.disk.used)} / ${formatBytes(s.disk.total)}`}</div>
              </>
            ) : (
              <Skeleton active paragraph={false} />
            )}
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card>
            <Statistic title={t('dashboard.devices')} value={d ? `${d.devices.online} / ${d.devices.total}` : '-'} />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card>
            <Statistic title={t('dashboard.channels')} value={d ? `${d.channels.online} / ${d.channels.total}` : '-'} />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card>
            <Statistic title={t('dashboard.users')} value={d ? d.users : '-'} />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('dashboard.server')}>
            {i ? (
              <Descriptions size="small" column={{ xs: 1, md: 2, lg: 3 }}>
                <Descriptions.Item label={t('dashboard.version')}>{i.Version}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.uptime')}>{formatDuration(s?.uptime ?? i.RunningSeconds, units)}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.startedAt')}>{i.StartUpTime}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.host')}>{i.Hostname}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.platform')}>{i.Platform}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.database')}>{i.Database}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.load')}>{i.LoadAvg?.map((n) => n.toFixed(2)).join(' / ')}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.network')}>{s ? `↓ ${formatBytes(s.network.rx)}/s  ↑ ${formatBytes(s.network.tx)}/s` : '-'}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.diskPath')}>{i.DiskPath}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Skeleton active />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
