/**
 * The three dialogs of the root screen (spec 2 "Root screen", spec 4 "Modal choice"): the
 * initialisation / change-password dialog, the network dialog and the network+password wizard.
 */
import { useState } from 'react';
import { Modal, Steps } from 'antd';
import { useTranslation } from 'react-i18next';
import { logout } from '../../../lib/logout';
import { useConfig } from '../../../lib/stores/config';
import { useSession } from '../../../lib/stores/session';
import { useUi } from '../../../lib/stores/ui';
import { useChangePassword, useInitialise } from '../hooks';
import { chooseSetupDialog, dialogsAllowedOn } from '../rules';
import { NetworkForm } from './NetworkForm';
import { PasswordForm } from './PasswordForm';

export default function SetupDialogs({ path }: { path: string }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const username = useSession((s) => s.userinfo?.name ?? '');
  const initialFlag = useConfig((s) => s.otherConfig?.Initial ?? false);
  const networkPrompt = useConfig((s) => s.networkPrompt);
  const setNetworkPrompt = useConfig((s) => s.setNetworkPrompt);
  const showPwd = useUi((s) => s.showNavBarModifyPWD);
  const forcedPwd = useUi((s) => s.modifyPwdForced);
  const closePwd = useUi((s) => s.closeModifyPwd);
  const init = useInitialise();
  const change = useChangePassword();
  const [wizardStep, setWizardStep] = useState(0);

  if (!token || !dialogsAllowedOn(path)) return null;
  const dialog = chooseSetupDialog(initialFlag, networkPrompt);
  // A forced dialog cannot be dismissed: leaving it means leaving the session.
  const cancelForced = () => void logout();

  if (dialog === 'init') {
    return (
      <Modal open title={t('password.initTitle')} footer={null} maskClosable={false} onCancel={cancelForced} destroyOnHidden>
        <PasswordForm initial requireUsername={false} initialUsername={username} submitting={init.submitting} onSubmit={init.submit} onCancel={cancelForced} />
      </Modal>
    );
  }
  if (dialog === 'network') {
    return (
      <Modal open title={t('network.title')} footer={null} maskClosable={false} onCancel={cancelForced} destroyOnHidden>
        <NetworkForm onDone={() => setNetworkPrompt(false)} onCancel={cancelForced} />
      </Modal>
    );
  }
  if (dialog === 'wizard') {
    return (
      <Modal open title={t('wizard.title')} footer={null} maskClosable={false} onCancel={cancelForced} width={620} destroyOnHidden>
        <Steps size="small" current={wizardStep} style={{ marginBottom: 24 }} items={[{ title: t('wizard.step1') }, { title: t('wizard.step2') }]} />
        {wizardStep === 0 ? (
          <NetworkForm submitText={t('wizard.next')} onDone={() => setWizardStep(1)} onCancel={cancelForced} />
        ) : (
          <PasswordForm initial requireUsername initialUsername={username} submitting={init.submitting} onSubmit={init.submit} onCancel={cancelForced} />
        )}
      </Modal>
    );
  }
  if (!showPwd) return null;
  const cancel = forcedPwd ? cancelForced : closePwd;
  return (
    <Modal open title={t('password.changeTitle')} footer={null} maskClosable={false} onCancel={cancel} destroyOnHidden>
      <PasswordForm initial={false} requireUsername={false} initialUsername={username} submitting={change.submitting} onSubmit={change.submit} onCancel={cancel} />
    </Modal>
  );
}
