import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { authRoutes } from './api/auth.js';
import { userRoutes } from './api/users.js';
import { roleRoutes } from './api/roles.js';
import { configRoutes } from './api/config.js';
import { initialRoutes } from './api/initial.js';
import { networkRoutes } from './api/network.js';
import { systemRoutes } from './api/system.js';
import { newsRoutes } from './api/news.js';
import { deviceRoutes } from './api/devices.js';
import { channelRoutes } from './api/channels.js';
import { labelRoutes } from './api/labels.js';
import { favoriteRoutes } from './api/favorites.js';
import { roleChannelRoutes } from './api/role-channels.js';
import { streamRoutes } from './api/streams.js';
import { mediaRoutes } from './media/index.js';
import { onvifRoutes } from './api/onvif.js';
import { ptzRoutes } from './api/ptz.js';
import { streamStatRoutes } from './api/streamstat.js';
import { recordRoutes } from './api/records.js';
import { recordPlanRoutes } from './api/recordplans.js';
import { playbackRoutes } from './api/playback.js';
import { gbConfigRoutes } from './api/gb-config.js';
import { gbListRoutes } from './api/gb-lists.js';
import { alarmRoutes } from './api/alarms.js';
import { gbDeviceRoutes } from './api/gb-devices.js';
import { gbRecordRoutes } from './api/gb-records.js';

/** Registers every domain's routes. */
export async function routes(app: FastifyInstance, opts: { ctx: AppContext }) {
  for (const plugin of [authRoutes, userRoutes, roleRoutes, configRoutes, initialRoutes, networkRoutes, systemRoutes, newsRoutes,
    deviceRoutes, channelRoutes, labelRoutes, favoriteRoutes, roleChannelRoutes, streamRoutes, mediaRoutes, onvifRoutes, recordRoutes, recordPlanRoutes, playbackRoutes, streamStatRoutes]) {
    await app.register(plugin, opts);
  }
  await app.register(ptzRoutes, opts);
  for (const plugin of [gbConfigRoutes, gbListRoutes, alarmRoutes, gbDeviceRoutes, gbRecordRoutes]) await app.register(plugin, opts);
}
