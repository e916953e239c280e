/** /version/index: console version, the server's build and figures, and the help topics. */
import { Button, Card, Col, Descriptions, List, Row, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { VERSION, type ServerInfo } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { getV1 } from '../../../lib/request';
import { recordVersionOf, useConfig } from '../../../lib/stores/config';
import { HELP_TOPICS } from '../helpTopics';

const fetchServerInfo = () => getV1<ServerInfo>('/api/v1/getserverinfo');

export default function VersionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useQuery({ queryKey: ['serverinfo'], queryFn: fetchServerInfo });
  const recordVersion = useConfig(recordVersionOf);
  const topics = HELP_TOPICS.filter((h) => recordVersion || h.to !== '/config/recording');
  const i = info.data;

  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={t('route.versionIndex')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('version.product')}>
            {i ? (
              <Descriptions size="small" column={1} bordered>
                <Descriptions.Item label={t('version.console')}>{VERSION}</Descriptions.Item>
                <Descriptions.Item label={t('version.server')}>{`${i.Server} ${i.Version}`}</Descriptions.Item>
                <Descriptions.Item label={t('version.versionType')}>{i.VersionType}</Descriptions.Item>
                <Descriptions.Item label={t('version.interface')}>{i.InterfaceVersion}</Descriptions.Item>
                <Descriptions.Item label={t('version.channelCount')}>{i.ChannelCount}</Descriptions.Item>
                <Descriptions.Item label={t('version.hardware')}>{i.Hardware}</Descriptions.Item>
                <Descriptions.Item label={t('version.node')}>{i.NodeVersion}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.startedAt')}>{i.StartUpTime}</Descriptions.Item>
                <Descriptions.Item label={t('dashboard.uptime')}>{i.RunningTime}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Skeleton active />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('help.title')}>
            <List
              dataSource={topics}
              renderItem={(h) => (
                <List.Item
                  actions={
                    h.to
                      ? [
                          <Button key="go" type="link" size="small" onClick={() => navigate(h.to!)}>
                            {t('help.go')}
                          </Button>,
                        ]
                      : []
                  }
                >
                  <List.Item.Meta title={t(h.title)} description={t(h.description)} />
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
