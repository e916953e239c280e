/** The recordings breadcrumb (spec 3/4) over the playback pages: clicking a crumb cuts the trail there. */
import { useEffect } from 'react';
import { Breadcrumb } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useRecordingBreadcrumb, type Crumb } from '../breadcrumb';

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
              onClick={(e) => {
                e.preventDefault();
                cut(i + 1);
                navigate(c.to!);
              }}
            >
              {c.label}
            </a>
          ) : (
            c.label
          ),
      }))}
    />
  );
}
