/** The channel-click rule lives in lib/channelClick (shared with the square page of features/live). */
export { channelClick, todayYmd, type ChannelClick, type ClickableChannel } from '../../lib/channelClick';
