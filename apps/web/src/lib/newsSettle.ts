/**
 * How long a burst of channel online/offline messages (the events socket's news: one per channel,
 * so a lost camera server sends hundreds at once) is gathered before a page reads its list again.
 */
export const NEWS_SETTLE_MS = 500;

/** The shortest time between two reads for messages that keep coming (a burst that trickles). */
export const NEWS_REFRESH_GAP_MS = 5000;
