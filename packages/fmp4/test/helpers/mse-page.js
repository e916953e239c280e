/* global document, MediaSource */
// Runs inside Chromium (page.evaluate), so it is plain JavaScript: the package's TypeScript has no DOM
// library. Types are in mse-page.d.ts.

/** MediaSource + one SourceBuffer: append every segment (base64), then play for a while. */
export async function playInPage({ mime, segments }) {
  if (!MediaSource.isTypeSupported(mime)) return { supported: false };
  const video = document.createElement('video');
  video.muted = true;
  document.body.append(video);
  const ms = new MediaSource();
  video.src = URL.createObjectURL(ms);
  await new Promise((r) => ms.addEventListener('sourceopen', r, { once: true }));
  const sb = ms.addSourceBuffer(mime);
  try {
    for (const b64 of segments) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      await new Promise((resolve, reject) => {
        sb.addEventListener('updateend', () => resolve(), { once: true });
        sb.addEventListener('error', () => reject(new Error('SourceBuffer error')), { once: true });
        sb.appendBuffer(bytes);
      });
    }
  } catch (e) {
    return { supported: true, error: String(e), videoError: video.error?.code ?? null };
  }
  const ranges = [];
  for (let i = 0; i < sb.buffered.length; i++) ranges.push([sb.buffered.start(i), sb.buffered.end(i)]);
  ms.endOfStream();
  video.currentTime = ranges[0]?.[0] ?? 0;
  await video.play().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1500));
  return { supported: true, ranges, played: video.currentTime, videoError: video.error?.code ?? null };
}
