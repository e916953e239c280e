import { Grid } from 'antd';

/**
 * Whether the window is phone-wide: narrower than antd's md (768 px), where the layout's sidebar
 * collapses too. Before antd has measured the window, md is undefined: that counts as wide, so a
 * desktop never flashes the phone layout. (jsdom's matchMedia answers false: unit tests get the phone.)
 */
export function usePhone(): boolean {
  return Grid.useBreakpoint().md === false;
}
