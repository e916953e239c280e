/**
 * Shown when a page fails to render or its chunk fails to load (spec 8: ChunkLoadError after the
 * 120 s timeout; CSS_CHUNK_LOAD_FAILED for a stylesheet). Part of the first load (it must work when
 * chunks do not arrive), so it uses plain markup and a Button. A chunk failure says what went wrong in
 * words and offers a reload: a slow or broken connection, or a console updated on the server since
 * this one loaded (its old chunk names are gone), is what a reload mends.
 */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { CHUNK_LOAD_TIMEOUT_MS } from '@opencvr/shared';
import type { ChunkFailure } from '../lib/lazy';
import { reloadPage } from '../lib/navigation';

type Failure = Error & { code?: string; failure?: ChunkFailure };

export function RouteError() {
  const { t } = useTranslation();
  const err = useRouteError() as Failure | undefined;
  const chunk = err?.name === 'ChunkLoadError';
  const detail = err?.code ?? err?.message;
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 48, lineHeight: 1, color: '#faad14' }} aria-hidden>
        ⚠
      </div>
      <h3 style={{ fontSize: 24, fontWeight: 400, margin: '24px 0 8px', color: 'rgba(0,0,0,0.88)' }}>
        {chunk ? t('common.chunkFailed') : t('common.pageFailed')}
      </h3>
      {chunk && (
        <div style={{ color: 'rgba(0,0,0,0.65)', marginBottom: 8 }}>
          {err.failure === 'timeout'
            ? t('common.chunkTimeout', { seconds: CHUNK_LOAD_TIMEOUT_MS / 1000 })
            : err.failure === 'css'
              ? t('common.chunkCss')
              : t('common.chunkScript')}
        </div>
      )}
      {detail && <div style={{ color: 'rgba(0,0,0,0.45)', marginBottom: 24 }}>{detail}</div>}
      <Button type="primary" onClick={reloadPage}>
        {t('common.reload')}
      </Button>
    </div>
  );
}
