/**
 * The lazy console frame: antd's App context (App.useApp() for pages that want context-aware
 * message/modal/notification) around the layout. Kept out of the first load so /login never
 * pulls it.
 */
import { App as AntApp } from 'antd';
import { NOTICE_SECONDS, NOTICE_TOP } from '../../lib/notify';
import AppLayout from './AppLayout';

export default function Shell() {
  return (
    <AntApp
      component={false}
      message={{ duration: NOTICE_SECONDS, top: NOTICE_TOP }}
      notification={{ duration: NOTICE_SECONDS, top: NOTICE_TOP }}
    >
      <AppLayout />
    </AntApp>
  );
}
