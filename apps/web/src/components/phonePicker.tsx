/**
 * A date(-time) picker's popup laid out for a phone-wide window: its parts stacked instead of side
 * by side.
 *
 * Why: antd lays the popup of a RangePicker with showTime out in a row (presets 120 px, the month
 * 288 px, three time columns 170 px: 577 px); on a 390 px phone it was pushed past the window's
 * left edge, the presets and the Monday column out of reach. Stacked it is one month wide, the
 * presets a row of chips above it and the time columns shorter below it, so the popup fits a
 * phone's height too. Spread the props on the picker only on a phone: desktop pickers are as before.
 */
import type { ReactNode } from 'react';

const CLASS = 'ocvr-phone-picker';

// Prefixed with the popup's own class twice over antd's: its rules (:where(.css-…).ant-picker-dropdown …) win otherwise.
const P = `.${CLASS}.ant-picker-dropdown`;
const CSS = `
${P} .ant-picker-panel-layout,
${P} .ant-picker-datetime-panel { flex-direction: column; }
${P} .ant-picker-presets { max-width: none; }
${P} .ant-picker-presets ul { height: auto; display: flex; flex-wrap: wrap; gap: 4px; border-inline-end: none; }
${P} .ant-picker-time-panel { border-inline-start: none; }
${P} .ant-picker-time-panel .ant-picker-content,
${P} .ant-picker-time-panel-column { height: 112px; }
`;

/** Props for an antd DatePicker / RangePicker on a phone: its popup stacked (the rules travel with the popup). */
export const phonePickerProps = {
  classNames: { popup: { root: CLASS } },
  panelRender: (panel: ReactNode) => (
    <>
      <style>{CSS}</style>
      {panel}
    </>
  ),
};
