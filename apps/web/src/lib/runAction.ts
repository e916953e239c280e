/**
 * Runs one change the user asked for: on success a notice (操作成功 unless told otherwise) and true;
 * on failure false, the request layer having shown why. Every page's delete/save button uses it.
 */
import { msg } from '../i18n';
import { notify } from './notify';

export async function runAction(work: () => Promise<unknown>, text: string = msg('success')): Promise<boolean> {
  try {
    await work();
    notify.success(text);
    return true;
  } catch {
    return false;
  }
}
