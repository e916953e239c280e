import { useEffect, type ReactNode } from 'react';
import { Flex, Typography } from 'antd';

/** A page heading that also names the browser tab. */
export function PageTitle({ title, extra }: { title: string; extra?: ReactNode }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <Flex justify="space-between" align="center" style={{ marginBottom: 12 }} wrap gap={8}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
