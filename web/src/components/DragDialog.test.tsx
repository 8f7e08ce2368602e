import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Col, Row } from 'antd';
import '../i18n';
import { renderWithProviders } from '../test/utils';
import DragDialog, { bodyStyle, CHROME_HEIGHT, GUTTER_ROOM } from './DragDialog';

describe('DragDialog body', () => {
  it('reaches into the dialog padding by as much as it pads itself: content in line with title and footer', () => {
    const s = bodyStyle(false);
    expect(s.marginInline).toBe(-GUTTER_ROOM);
    expect(s.paddingInline).toBe(GUTTER_ROOM);
    expect(s.overflow).toBe('auto');
    // half of the 16 px gutter the forms' rows use: the row's negative margins stay inside the body
    expect(GUTTER_ROOM).toBe(16 / 2);
    // a resized dialog has its height on the box: the body fills what the title and footer leave
    expect(bodyStyle(false, 500).height).toBeUndefined();
  });

  it('scrolls a long body inside the dialog until it is resized or maximised: the footer stays on the screen', () => {
    expect(bodyStyle(false).maxHeight).toBe(`calc(100vh - ${CHROME_HEIGHT}px)`);
    expect(bodyStyle(false, 500).maxHeight).toBeUndefined();
    expect(bodyStyle(true).maxHeight).toBeUndefined();
  });

  it('draws the body with that style around a gutter row', async () => {
    renderWithProviders(
      <DragDialog open title="t" footer={null}>
        <Row gutter={16}>
          <Col span={12}>a</Col>
        </Row>
      </DragDialog>,
    );
    await screen.findByText('a');
    const body = document.querySelector('.ant-modal-body') as HTMLElement;
    expect(body.style.paddingInline).toBe(`${GUTTER_ROOM}px`);
    expect(body.style.marginInline).toBe(`-${GUTTER_ROOM}px`);
  });
});
