/** Runs the tasks of one device one after the other (a keepalive never overtakes the offline write before it). */
export class DeviceSerial {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(deviceId: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(deviceId) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(deviceId, tail);
    void tail.then(() => {
      if (this.tails.get(deviceId) === tail) this.tails.delete(deviceId);
    });
    return next;
  }
}
