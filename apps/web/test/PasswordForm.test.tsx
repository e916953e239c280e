import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../src/i18n';
import { setLang } from '../src/i18n';
import { PasswordForm } from '../src/features/setup/components/PasswordForm';

function setup(props: Partial<Parameters<typeof PasswordForm>[0]> = {}) {
  const onSubmit = vi.fn();
  const utils = render(<PasswordForm initial={false} requireUsername={false} onSubmit={onSubmit} {...props} />);
  const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
  const save = () => screen.getByRole('button', { name: /保\s*存/ });
  return { ...utils, onSubmit, field, save };
}

describe('PasswordForm validation (spec 5)', () => {
  setLang('zh-CN');

  it('keeps Save disabled until the form differs from its initial state', async () => {
    const { field, save } = setup();
    expect(save()).toBeDisabled();
    await userEvent.type(field('原始密码'), 'a');
    expect(save()).toBeEnabled();
    await userEvent.clear(field('原始密码'));
    expect(save()).toBeDisabled();
  });

  it('shows the required messages', async () => {
    const { field, save, onSubmit } = setup();
    await userEvent.type(field('登录名'), 'admin');
    await userEvent.click(save());
    expect(await screen.findByText('原始密码不能为空!')).toBeInTheDocument();
    expect(screen.getByText('新密码不能为空!')).toBeInTheDocument();
    expect(screen.getByText('确认新密码不能为空!')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  // One test per rule: the three typed ~70 characters through antd's validation in one test, which
  // ran past the 15 s limit on a loaded machine (seen twice in session 26).
  async function fill(field: (label: string) => HTMLInputElement, old: string, next: string, confirm: string) {
    await userEvent.type(field('原始密码'), old);
    await userEvent.type(field('新密码'), next);
    await userEvent.type(field('确认新密码'), confirm);
  }

  it('rejects a weak password', async () => {
    const { field, save, onSubmit } = setup();
    await fill(field, 'Admin@1234', 'abcdefgh', 'abcdefgh');
    await userEvent.click(save());
    expect(await screen.findByText('密码最少8位，需包含大写字母、小写字母、数字、特殊字符中的三种')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('rejects a new password equal to the old one', async () => {
    const { field, save, onSubmit } = setup();
    await fill(field, 'Admin@1234', 'Admin@1234', 'Admin@1234');
    await userEvent.click(save());
    expect(await screen.findByText('新密码与原始密码相同，请重新输入')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('rejects a differing confirmation', async () => {
    const { field, save, onSubmit } = setup();
    await fill(field, 'Admin@1234', 'Better#2025', 'Better#2026');
    await userEvent.click(save());
    expect(await screen.findByText('新密码与确认密码不一致，请重新输入')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('requires SIP and EHOME passwords at initialisation and the admin name in the wizard', async () => {
    const { field, save, onSubmit } = setup({ initial: true, requireUsername: true });
    await userEvent.type(field('原始密码'), 'admin');
    await userEvent.click(save());
    expect(await screen.findByText('请输入管理员登录名')).toBeInTheDocument();
    expect(screen.getByText('SIP密码不能为空!')).toBeInTheDocument();
    expect(screen.getByText('EHOME密码不能为空!')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('does not ask for the user name in the plain dialog and submits valid input', async () => {
    const { field, save, onSubmit } = setup();
    await userEvent.type(field('原始密码'), 'admin');
    await userEvent.type(field('新密码'), 'Better#2025');
    await userEvent.type(field('确认新密码'), 'Better#2025');
    await userEvent.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ oldpassword: 'admin', newpassword: 'Better#2025', newpasswordPW: 'Better#2025' });
    expect(screen.queryByText('请输入管理员登录名')).toBeNull();
  });

  it('shows the messages in English when the language is English', async () => {
    setLang('en-US');
    const { field } = setup();
    await userEvent.type(field('Original password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('New password is required!')).toBeInTheDocument();
    setLang('zh-CN');
  });
});
