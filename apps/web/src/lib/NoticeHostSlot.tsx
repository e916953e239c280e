/**
 * Where the App renders the lazy notice host. Its chunk is fetched when the first notice is asked
 * for, which is often when the server has just gone away: a failed load must not unmount the whole
 * console (a lazy component that throws outside every error boundary leaves a blank page that no
 * reconnect brings back). The failure is caught here, and the next notice tries a fresh load.
 */
import { Component, lazy, Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { withChunkTimeout } from './lazy';
import { noticeHostFailed, useNoticeHost } from './notify';

class HostBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch() {
    noticeHostFailed();
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function NoticeHostSlot({ load }: { load: () => Promise<{ default: ComponentType }> }) {
  const wanted = useNoticeHost((s) => s.wanted);
  const tries = useNoticeHost((s) => s.tries);
  // React.lazy keeps a rejected load for good: each try gets a new one.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `tries` is what asks for the new one
  const Host = useMemo(() => lazy(() => withChunkTimeout(load)), [load, tries]);
  if (!wanted) return null;
  return (
    <HostBoundary key={tries}>
      <Suspense fallback={null}>
        <Host />
      </Suspense>
    </HostBoundary>
  );
}
