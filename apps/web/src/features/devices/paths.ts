/** Links between the device pages, with the query the breadcrumb reads (deviceName, deviceType, channelName). */
function withQuery(path: string, q: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export const channelListPath = (devid: string, deviceName?: string, deviceType?: string, subset?: string) =>
  withQuery(`/device/channel/${encodeURIComponent(devid)}`, { deviceName, deviceType, subset });

export const channelFormPath = (devid: string, chnid: string, deviceName?: string, deviceType?: string, channelName?: string) =>
  withQuery(`/device/channelform/${encodeURIComponent(devid)}/${encodeURIComponent(chnid)}`, { deviceName, deviceType, channelName });
