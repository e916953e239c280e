/**
 * The recordings breadcrumb (spec 3/4) over the playback pages: clicking a crumb cuts the trail there.
 * A crumb is one line, cut with an ellipsis past CRUMB_MAX_PX, its whole name its tooltip: a GB
 * catalogue's NVR and camera names (60-80 characters) wrapped the trail onto a second line, pushing
 * the player down on a 1366×768 screen.
 */
import { useEffect, type CSSProperties } from 'react';
import { Breadcrumb } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useRecordingBreadcrumb, type Crumb } from '../breadcrumb';

/** The widest a crumb is drawn. */
export const CRUMB_MAX_PX = 260;
const CRUMB: CSSProperties = { display: 'inline-block', maxWidth: CRUMB_MAX_PX, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' };

export function RecordingBreadcrumb({ node, parents, stime }: { node: Crumb; parents: Crumb[]; stime: string }) {
  const navigate = useNavigate();
  const { records, add, cut } = useRecordingBreadcrumb();
  const key = [...parents, node].map((c) => `${c.key}=${c.label}`).join('|');
  useEffect(() => {
    add(node, parents, stime);
    // `key` stands for node and parents.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, stime, add]);
  return (
    <Breadcrumb
      data-testid="recording-breadcrumb"
      style={{ marginBottom: 8 }}
      items={records.map((c, i) => ({
        key: c.key,
        title:
          i < records.length - 1 && c.to ? (
            <a
              href={c.to}
              title={c.label}
              style={CRUMB}
              onClick={(e) => {
                e.preventDefault();
                cut(i + 1);
                navigate(c.to!);
              }}
            >
              {c.label}
            </a>
          ) : (
            <span title={c.label} style={CRUMB}>
              {c.label}
            </span>
          ),
      }))}
    />
  );
}
