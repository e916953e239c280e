/**
 * Dragging a channel from the video sidebar onto a wall cell: the sidebar puts this data on the
 * drag, the wall reads it. Lives in lib/ because two features share it.
 */
export const CHANNEL_DRAG_TYPE = 'application/x-opencvr-channel';

export interface DraggedChannel {
  device: string;
  channel: string;
  name: string;
}

export function setChannelDrag(e: { dataTransfer: DataTransfer | null }, c: DraggedChannel) {
  if (!e.dataTransfer) return;
  e.dataTransfer.setData(CHANNEL_DRAG_TYPE, JSON.stringify(c));
  e.dataTransfer.setData('text/plain', c.name);
  e.dataTransfer.effectAllowed = 'copy';
}
