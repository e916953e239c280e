import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { Flex, Typography } from 'antd';

/**
 * At most two lines of heading, cut with an ellipsis, the whole of it its tooltip. Beside the page's
 * buttons whatever its length: a long GB catalogue camera name in a playback title took the buttons
 * onto a line of their own and three lines of the 1366×768 window (the heading's flex basis was its
 * full width, so the row wrapped; now 0, the heading takes what the buttons leave).
 */
const HEADING: CSSProperties = { margin: 0, flex: '1 1 0', minWidth: 0, overflowWrap: 'anywhere' };

/** A page heading that also names the browser tab. */
export function PageTitle({ title, extra }: { title: string; extra?: ReactNode }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <Flex justify="space-between" align="center" style={{ marginBottom: 12 }} wrap gap={8}>
      {/* antd's own line clamp (CSS, the whole text stays in the page): a line clamp in the style is overwritten by Typography. */}
      <Typography.Title level={4} style={HEADING} title={title} ellipsis={{ rows: 2 }}>
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
