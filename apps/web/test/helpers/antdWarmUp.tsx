/**
 * antd's common components rendered once per worker before its first file's tests (test/setup.ts),
 * so the first test of a worker does not pay for them inside its 15 s.
 *
 * antd makes its CSS at run time, per component and theme, the first time one is rendered, and jsdom
 * parses each <style> it adds (profile of PtzPresets' first render at load 20: cssinjs'
 * useStyleRegister 1.6 s and jsdom's parseStyleSheet 0.9 s of its 4.3 s). The files after the first
 * share the worker's antd, its style cache and the <style> tags in the head (vitest.config.ts
 * isolate: false), so only the worker's first test carried it: PtzPresets' first test, run alone,
 * timed out at load 23; at load 15-19 it took 1.8-1.9 CPU-s (14-18 s) against 1.2-1.4 CPU-s (5-8 s)
 * once these were made here (which costs the worker 1.2-1.4 CPU-s, once). Rendered in the console's
 * ConfigProvider (zh-CN), as helpers/console.tsx renders: the same theme, so its tests find the
 * styles made. Only antd: no console module is loaded here.
 */
import { render } from '@testing-library/react';
import { Button, Card, ConfigProvider, Empty, Input, InputNumber, Modal, Popconfirm, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import zhCN from 'antd/locale/zh_CN';

export function warmUpAntd(): void {
  // Tables and selects observe their size; jsdom has none (helpers/console.tsx adds one per file).
  const hadObserver = typeof globalThis.ResizeObserver !== 'undefined';
  if (!hadObserver) {
    globalThis.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  }
  try {
    const view = render(
      <ConfigProvider locale={zhCN}>
        <Space>
          <Typography.Text>text</Typography.Text>
          <Button>button</Button>
          <Input />
          <InputNumber />
          <Tag>tag</Tag>
          <Spin />
          <Empty />
        </Space>
        <Card title="card">
          <Table columns={[{ title: 'a', dataIndex: 'a' }]} dataSource={[{ key: 1, a: 1 }]} />
        </Card>
        <Select open options={[{ value: 1, label: 'one' }]} />
        <Popconfirm title="confirm" open>
          <Button>pop</Button>
        </Popconfirm>
        <Modal open title="modal">
          modal
        </Modal>
      </ConfigProvider>,
    );
    view.unmount();
  } finally {
    document.body.innerHTML = '';
    if (!hadObserver) delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  }
}
