/** A channel's line in the sidebar: online/offline icon, name, and the favourite star. */
import { Tooltip } from 'antd';
import { FolderOutlined, StarFilled, StarOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { setChannelDrag, type DraggedChannel } from '../../../lib/channelDrag';

interface Props {
  name: string;
  online: number;
  directory?: boolean;
  /** Omitted where the flag is not known (group tree): no star. */
  favourite?: number;
  onStar?: () => void;
  /** A camera that can be dragged onto a wall cell. */
  drag?: DraggedChannel;
}

export function ChannelTitle({ name, online, directory, favourite, onStar, drag }: Props) {
  const { t } = useTranslation();
  const color = online === 1 ? '#52c41a' : '#bfbfbf';
  return (
    <span
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, width: '100%' }}
      data-online={online === 1 ? '1' : '0'}
      draggable={!!drag && !directory}
      onDragStart={drag && !directory ? (e) => setChannelDrag(e, drag) : undefined}
    >
      {directory ? <FolderOutlined style={{ color: '#faad14' }} /> : <VideoCameraOutlined style={{ color }} aria-label={online === 1 ? 'online' : 'offline'} />}
      <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{name}</span>
      {favourite !== undefined && onStar && (
        <Tooltip title={favourite === 1 ? t('video.unfavourite') : t('video.favourite')}>
          <span
            role="button"
            aria-label={favourite === 1 ? t('video.unfavourite') : t('video.favourite')}
            aria-pressed={favourite === 1}
            onClick={(e) => {
              // The star must not also open the channel.
              e.stopPropagation();
              onStar();
            }}
            style={{ color: favourite === 1 ? '#faad14' : '#bfbfbf', cursor: 'pointer' }}
          >
            {favourite === 1 ? <StarFilled /> : <StarOutlined />}
          </span>
        </Tooltip>
      )}
    </span>
  );
}
