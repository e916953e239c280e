/**
 * The channel picker's device boxes: a device is ticked when every one of its cameras is picked,
 * half-ticked when some are. Its cameras are known once its box was ticked (they are loaded then,
 * all pages); before that a device with picked channels can only be said to have some.
 */
export type DeviceTick = 'all' | 'some' | 'none';

/**
 * `cameras`: the channel keys of each device whose cameras were loaded; `pickedPerDevice`: how many
 * picked channel keys each device has; `isPicked`: whether one channel key is picked.
 */
export function deviceTick(
  device: string,
  cameras: ReadonlyMap<string, readonly string[]>,
  pickedPerDevice: ReadonlyMap<string, number>,
  isPicked: (key: string) => boolean,
): DeviceTick {
  const some = (pickedPerDevice.get(device) ?? 0) > 0;
  const known = cameras.get(device);
  if (known?.length && known.every(isPicked)) return 'all';
  return some ? 'some' : 'none';
}
