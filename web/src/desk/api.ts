import request from '../api/request';
import type { Page, R } from '../api/types';

/** blade-desk: notices and the home page's key figures (internal/desk). */
export const NOTICE = '/api/blade-desk/notice';
export const NOTICE_PATH = '/desk/notice';
export const SUMMARY = '/api/blade-desk/home/summary';

export interface NoticeRow {
  id: string;
  title: string;
  category: number;
  releaseTime?: string;
  /** Sanitised HTML (the server strips scripts, on* attributes and javascript: URLs before storing it). */
  content?: string;
  /** Whether the signed-in user has opened it. */
  read: boolean;
}

export interface Figure {
  key: string;
  label: string;
  menuCode: string;
  value: number;
}

/** The newest notices, by release time (the server's default order). */
export const latestNotices = async (size: number): Promise<Page<NoticeRow>> =>
  (await request.get<R<Page<NoticeRow>>>(`${NOTICE}/list`, { params: { current: 1, size } })).data.data;

/** One notice; opening it records that the user has read it. */
export const noticeDetail = async (id: string): Promise<NoticeRow> => (await request.get<R<NoticeRow>>(`${NOTICE}/detail`, { params: { id } })).data.data;

/** The tenant's key figures the user is granted (an empty list when none). */
export const homeSummary = async (): Promise<Figure[]> => (await request.get<R<Figure[]>>(SUMMARY)).data.data ?? [];

/** Query key of the latest notices, shared by the bell and the home page. */
export const NOTICES_KEY = ['desk', 'notices'] as const;
/** How many notices the bell and the home page show. */
export const LATEST = 8;
