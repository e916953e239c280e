import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import '../src/i18n';
import { setLang } from '../src/i18n';
import { StrengthMeter } from '../src/features/setup/components/StrengthMeter';

function lit() {
  return screen.getAllByTestId('strength-bar').map((b) => b.getAttribute('data-lit') === 'true');
}

describe('StrengthMeter', () => {
  setLang('zh-CN');

  it('shows nothing lit for an empty password', () => {
    render(<StrengthMeter password="" />);
    expect(lit()).toEqual([false, false, false]);
    expect(screen.getByTestId('strength-meter')).toHaveAttribute('data-level', 'none');
  });

  it('rates a short single-class password weak', () => {
    render(<StrengthMeter password="abc" />);
    expect(screen.getByTestId('strength-meter')).toHaveAttribute('data-level', 'weak');
    expect(screen.getByText('弱')).toBeInTheDocument();
    expect(lit()[2]).toBe(false);
  });

  it('rates an 8-character two-class password normal, lighting the 25 and 50 bars', () => {
    render(<StrengthMeter password="abcdefg1" />);
    const meter = screen.getByTestId('strength-meter');
    expect(meter).toHaveAttribute('data-level', 'normal');
    expect(Number(meter.getAttribute('data-percent'))).toBeGreaterThanOrEqual(50);
    expect(lit()).toEqual([true, true, false]);
    expect(screen.getByText('中')).toBeInTheDocument();
  });

  it('rates a long four-class password strong with all bars lit', () => {
    render(<StrengthMeter password="Abcdefgh#12345" />);
    expect(screen.getByTestId('strength-meter')).toHaveAttribute('data-level', 'strong');
    expect(lit()).toEqual([true, true, true]);
    expect(screen.getByText('强')).toBeInTheDocument();
  });
});
