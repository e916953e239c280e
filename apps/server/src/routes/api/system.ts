/** Real figures of the machine and the platform for the dashboard and the version page. */
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { VERSION, type ServerInfo, type StateDevice, type StateTop } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1, v2 } from '../../http/envelope.js';
import { diskUsage, formatDuration } from '../../services/system/sampler.js';

export async function systemRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['system'];
  const count = async (table: 'devices' | 'channels' | 'users', online?: boolean) => {
    let q = ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (online && table !== 'users') q = q.where('online', '=', 1);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  r.get('/api/v1/getserverinfo', { schema: { tags } }, async () => {
    const seconds = Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000);
    const disk = diskUsage(ctx.settings.dataDir);
    const cpus = os.cpus();
    const figures = await ctx.sampler.read();
    const body: ServerInfo = {
      Hardware: `${os.arch()} ${cpus.length} cores`,
      InterfaceVersion: 'v1',
      Server: `OpenCVR/${VERSION} (${os.type()})`,
      VersionType: 'OpenCVR',
      Version: VERSION,
      StartUpTime: ctx.startedAt.toISOString(),
      RunningTime: formatDuration(seconds),
      RunningSeconds: seconds,
      ChannelCount: await count('channels'),
      Platform: `${os.platform()} ${os.release()}`,
      Hostname: os.hostname(),
      NodeVersion: process.version,
      CPUCount: cpus.length,
      CPUModel: cpus[0]?.model ?? '',
      CPUUsage: figures.cpuPercent,
      LoadAvg: os.loadavg(),
      MemTotal: os.totalmem(),
      MemUsed: os.totalmem() - os.freemem(),
      ProcessRss: process.memoryUsage.rss(),
      DiskTotal: disk.total,
      DiskUsed: disk.used,
      DiskPath: ctx.settings.dataDir,
      Database: ctx.engine,
    };
    return v1('MSG_SC_SERVER_INFO_ACK', body);
  });

  const top = async (): Promise<StateTop> => {
    const figures = await ctx.sampler.read();
    return {
      cpu: figures.cpuPercent,
      memory: { total: os.totalmem(), used: os.totalmem() - os.freemem() },
      disk: diskUsage(ctx.settings.dataDir),
      network: { rx: figures.rxPerSec, tx: figures.txPerSec },
      uptime: Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000),
      time: new Date().toISOString(),
    };
  };
  const device = async (): Promise<StateDevice> => ({
    devices: { total: await count('devices'), online: await count('devices', true) },
    channels: { total: await count('channels'), online: await count('channels', true) },
    users: await count('users'),
  });
  r.get('/api/v2/state/top', { schema: { tags } }, async () => v2(await top()));
  r.get('/api/v1/state/top', { schema: { tags } }, async () => v1('MSG_SC_STATE_TOP_ACK', await top()));
  r.get('/api/v2/state/device', { schema: { tags } }, async () => v2(await device()));
  r.get('/api/v1/state/device', { schema: { tags } }, async () => v1('MSG_SC_STATE_DEVICE_ACK', await device()));
}
