/**
 * A channel's line in the sidebar: online/offline icon, name, 未开启 when the channel itself is switched
 * off (offline then, and nothing of it plays until it is switched on: worth saying, as a device's
 * line does), and the favourite star.
 */
import { memo, useState } from 'react';
import { Tooltip } from 'antd';
import { FolderOutlined, StarFilled, StarOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { setChannelDrag, type DraggedChannel } from '../../../lib/channelDrag';
import { ROW_NAME } from './treeRow';

interface Props {
  name: string;
  online: number;
  directory?: boolean;
  /** Omitted where the flag is not known (a folder, a server that does not say): no star. */
  favourite?: number;
  /**
   * Called when the star is clicked. Not compared between renders (the trees make a new one each
   * render): it may only use what the other props already say (the channel, its favourite flag).
   */
  onStar?: () => void;
  /** A camera that can be dragged onto a wall cell. */
  drag?: DraggedChannel;
  /** Shown after the name when the channel is switched off (its Enable); omitted otherwise. */
  disabledLabel?: string;
}

function ChannelTitleLine({ name, online, directory, favourite, onStar, drag, disabledLabel }: Props) {
  const { t } = useTranslation();
  // The star's tooltip is made only while the pointer is on the star: a level holds up to 50 rows.
  const [hover, setHover] = useState(false);
  const color = online === 1 ? '#52c41a' : '#bfbfbf';
  const starLabel = favourite === 1 ? t('video.unfavourite') : t('video.favourite');
  const star = favourite !== undefined && onStar && (
    <span
      role="button"
      aria-label={starLabel}
      aria-pressed={favourite === 1}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onClick={(e) => {
        // The star must not also open the channel.
        e.stopPropagation();
        onStar();
      }}
      style={{ color: favourite === 1 ? '#faad14' : '#bfbfbf', cursor: 'pointer' }}
    >
      {favourite === 1 ? <StarFilled /> : <StarOutlined />}
    </span>
  );
  return (
    <span
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, width: '100%' }}
      data-online={online === 1 ? '1' : '0'}
      draggable={!!drag && !directory}
      onDragStart={drag && !directory ? (e) => setChannelDrag(e, drag) : undefined}
    >
      {directory ? <FolderOutlined style={{ color: '#faad14' }} /> : <VideoCameraOutlined style={{ color }} aria-label={online === 1 ? 'online' : 'offline'} />}
      {/* Ends in … where the sidebar is too narrow (treeRow.ts); the whole name on hover. */}
      <span style={{ ...ROW_NAME, flex: 1 }} title={name}>
        {name}
      </span>
      {disabledLabel && <span style={{ color: '#8c8c8c', flexShrink: 0, whiteSpace: 'nowrap' }}>{disabledLabel}</span>}
      {star &&
        (hover ? (
          <Tooltip open title={starLabel}>
            {star}
          </Tooltip>
        ) : (
          star
        ))}
    </span>
  );
}

const sameDrag = (a?: DraggedChannel, b?: DraggedChannel) =>
  a === b || (!!a && !!b && a.device === b.device && a.channel === b.channel && a.name === b.name);

/** Re-rendered only when what it shows changes (see onStar). */
export const ChannelTitle = memo(
  ChannelTitleLine,
  (a, b) =>
    a.name === b.name &&
    a.online === b.online &&
    a.directory === b.directory &&
    a.disabledLabel === b.disabledLabel &&
    a.favourite === b.favourite &&
    !!a.onStar === !!b.onStar &&
    sameDrag(a.drag, b.drag),
);
