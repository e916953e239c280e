import type { ServerInfo, StateDevice, StateTop } from '@opencvr/shared';
import { getV1, getV2 } from '../../lib/request';

export const fetchServerInfo = () => getV1<ServerInfo>('/api/v1/getserverinfo');
export const fetchStateTop = () => getV2<StateTop>('/api/v2/state/top');
export const fetchStateDevice = () => getV2<StateDevice>('/api/v2/state/device');
