/** Calls of the video sidebar (spec 2 "Video pages"), one function per call. */
import { TREE_PAGE_SIZE, type ChannelRow, type DeviceRow, type GroupNode } from '@opencvr/shared';
import { forgetEarly, peekSettled, startEarly, takeEarly } from '../../lib/early';
import { getV1 } from '../../lib/request';
import { useSession } from '../../lib/stores/session';

export { searchAllChannels } from '../../lib/api/inventory';

const treeDevices = (start: number, limit: number, quiet = false) =>
  getV1<{ Devices: DeviceRow[]; TotalCount: number }>('/api/v1/devices', { start, limit }, { quiet });
const firstTreePage = () => `tree:devices:${useSession.getState().token}`;

/**
 * Tree level 1: devices that can hold video (the server leaves GAT1400 out). `quiet` (here and
 * below): a refresh nobody asked for (useTreeFreshness) fails without a notice.
 */
export const fetchTreeDevices = (start: number, limit: number, quiet = false) =>
  start === 0 && limit === TREE_PAGE_SIZE && !quiet ? takeEarly(firstTreePage(), () => treeDevices(start, limit)) : treeDevices(start, limit, quiet);
/** Start-up (app/boot.ts): asks for the tree's first page while the console's code still loads. */
export const prefetchTreeDevices = () => startEarly(firstTreePage(), () => treeDevices(0, TREE_PAGE_SIZE));
/**
 * That first page if it has already arrived, for the tree's first render; the tree hands it out
 * (usedTreeDevices) once mounted. Taking it in the render lost it when React threw that render
 * away and ran it again (seen on 2 of 6 cold loads): the tree then asked the server a second time.
 */
export const settledTreeDevices = () => peekSettled<{ Devices: DeviceRow[]; TotalCount: number }>(firstTreePage());
export const usedTreeDevices = () => forgetEarly(firstTreePage());
/** A device's channels, or a directory's children with `subset` (its GBID). */
export const fetchTreeChannels = (device: string, start: number, limit: number, subset?: string, quiet = false) =>
  getV1<{ Channels: ChannelRow[]; ChannelCount: number }>('/api/v1/channels', { device, subset: subset || undefined, start, limit }, { quiet });
/** A level of the group tree, a page of it (a group can hold a site's cameras); Count is the level's size. */
export const fetchGroupChildren = (labelid: string | number, start: number, limit: number, quiet = false) =>
  getV1<{ Nodes: GroupNode[]; Count?: number }>('/api/v1/group/children', { labelid, start, limit }, { quiet });
export const fetchGroupDeviceChannels = (p: { deviceid: string; labelid: string | number; subset?: string; start: number; limit: number }, quiet = false) =>
  getV1<{ Nodes: GroupNode[]; Count: number }>('/api/v1/group/devicechannels', { ...p, subset: p.subset || undefined }, { quiet });
export const fetchFavorites = (start: number, limit: number, quiet = false) =>
  getV1<{ Channels: ChannelRow[]; ChannelCount: number }>('/api/v1/favorites', { start, limit }, { quiet });
export const addFavorite = (device: string, channel: string) =>
  getV1<{ FavoritesChannel: number }>('/api/v1/addfavoriteschannel', { device, channel });
export const deleteFavorite = (device: string, channel: string) =>
  getV1<{ FavoritesChannel: number }>('/api/v1/deletefavoriteschannel', { device, channel });
