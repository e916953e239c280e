/** What happens when the password and initialisation forms are submitted (spec 4, 8). */
import { useState } from 'react';
import { INIT_REDIRECT_MS } from '@opencvr/shared';
import { msg } from '../../i18n';
import { md5hex } from '../../lib/md5';
import { notify } from '../../lib/notify';
import { RequestError } from '../../lib/request';
import { clearLocalCache } from '../../lib/session';
import { navigateTo } from '../../lib/navigation';
import { disconnectEvents } from '../../lib/ws';
import { useConfig } from '../../lib/stores/config';
import { useUi } from '../../lib/stores/ui';
import { modifyPassword, setInitial, type CodeAnswer } from './api';
import type { PasswordValues } from './components/PasswordForm';

function failureText(err: unknown): string {
  if (err instanceof RequestError) return err.msg;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The server revoked every session of the user: go to /login, then forget ours (in that order, so
 * the route guard does not redirect first with a ?redirect= of the current page).
 */
async function finish(): Promise<void> {
  useConfig.getState().setInitial(false);
  useConfig.getState().setNetworkPrompt(false);
  await navigateTo('/login');
  disconnectEvents();
  clearLocalCache();
}

export function useChangePassword() {
  const [submitting, setSubmitting] = useState(false);
  const submit = async (v: PasswordValues) => {
    setSubmitting(true);
    try {
      const res: CodeAnswer = await modifyPassword({
        username: v.username.trim() || undefined,
        oldpassword: md5hex(v.oldpassword),
        newpassword: v.newpassword,
      });
      if (res && typeof res.code === 'number' && res.code !== 200) {
        notify.error(res.msg);
        return;
      }
      notify.success(msg('passwordChanged'));
      await finish();
    } catch (err) {
      notify.error(failureText(err));
    } finally {
      setSubmitting(false);
    }
  };
  return { submit, submitting };
}

export function useInitialise() {
  const [submitting, setSubmitting] = useState(false);
  const submit = async (v: PasswordValues) => {
    setSubmitting(true);
    try {
      const res = await setInitial({
        Username: v.username.trim() || undefined,
        SipPassword: v.sippassword,
        EhomePassword: v.ehomepassword,
        OldPassword: md5hex(v.oldpassword),
        NewPassword: v.newpassword,
      });
      if (res.code === 400) {
        notify.error(res.msg);
      } else if (res.status === 200) {
        notify.success(msg('initSuccess'));
        // The dialog closes at once (Initial is false); the login page follows after 3 s. The
        // server has revoked the session: hold back other calls (the bell) until then.
        useUi.getState().setSessionEnding(true);
        useConfig.getState().setInitial(false);
        useConfig.getState().setNetworkPrompt(false);
        setTimeout(() => void finish(), INIT_REDIRECT_MS);
      } else {
        notify.error(res.msg);
      }
    } catch (err) {
      notify.error(failureText(err));
    } finally {
      setSubmitting(false);
    }
  };
  return { submit, submitting };
}
