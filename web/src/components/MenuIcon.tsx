import type { ComponentType } from 'react';
import {
  AccountBookOutlined, ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BankOutlined,
  BarChartOutlined, BarcodeOutlined, BellOutlined, BookOutlined, BranchesOutlined, BuildOutlined,
  CalculatorOutlined, CarOutlined, CheckSquareOutlined, ClusterOutlined, CloudOutlined, CodeOutlined,
  ContainerOutlined, ControlOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined,
  DesktopOutlined, DollarOutlined, EnvironmentOutlined, ExperimentOutlined, FileDoneOutlined,
  FileExcelOutlined, FileOutlined, FileSearchOutlined, FileTextOutlined, FolderOutlined, FormOutlined,
  FundOutlined, GiftOutlined, GlobalOutlined, GoldOutlined, HddOutlined, HomeOutlined, IdcardOutlined,
  InboxOutlined, KeyOutlined, LineChartOutlined, LinkOutlined, LockOutlined, MailOutlined, MenuOutlined,
  MessageOutlined, MonitorOutlined, NodeIndexOutlined, NotificationOutlined, PartitionOutlined,
  PictureOutlined, PrinterOutlined, ProfileOutlined, ProjectOutlined, ReadOutlined, ReconciliationOutlined,
  SafetyOutlined, ScheduleOutlined, SettingOutlined, ShopOutlined, ShoppingCartOutlined, ShoppingOutlined,
  SolutionOutlined, SwapOutlined, TableOutlined, TagOutlined, TagsOutlined, TeamOutlined, ToolOutlined,
  TrophyOutlined, UnorderedListOutlined, UserOutlined, UsergroupAddOutlined, VideoCameraOutlined,
  WalletOutlined,
} from '@ant-design/icons';

type Icon = ComponentType<{ className?: string }>;

/**
 * Icons a menu `source` may name. Only these are bundled (importing the whole icon set would add
 * ~190 KB gzip to every page); an unknown or empty name shows AppstoreOutlined.
 */
const ICONS: Record<string, Icon> = {
  AccountBookOutlined, ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BankOutlined,
  BarChartOutlined, BarcodeOutlined, BellOutlined, BookOutlined, BranchesOutlined, BuildOutlined,
  CalculatorOutlined, CarOutlined, CheckSquareOutlined, ClusterOutlined, CloudOutlined, CodeOutlined,
  ContainerOutlined, ControlOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined,
  DesktopOutlined, DollarOutlined, EnvironmentOutlined, ExperimentOutlined, FileDoneOutlined,
  FileExcelOutlined, FileOutlined, FileSearchOutlined, FileTextOutlined, FolderOutlined, FormOutlined,
  FundOutlined, GiftOutlined, GlobalOutlined, GoldOutlined, HddOutlined, HomeOutlined, IdcardOutlined,
  InboxOutlined, KeyOutlined, LineChartOutlined, LinkOutlined, LockOutlined, MailOutlined, MenuOutlined,
  MessageOutlined, MonitorOutlined, NodeIndexOutlined, NotificationOutlined, PartitionOutlined,
  PictureOutlined, PrinterOutlined, ProfileOutlined, ProjectOutlined, ReadOutlined, ReconciliationOutlined,
  SafetyOutlined, ScheduleOutlined, SettingOutlined, ShopOutlined, ShoppingCartOutlined, ShoppingOutlined,
  SolutionOutlined, SwapOutlined, TableOutlined, TagOutlined, TagsOutlined, TeamOutlined, ToolOutlined,
  TrophyOutlined, UnorderedListOutlined, UserOutlined, UsergroupAddOutlined, VideoCameraOutlined,
  WalletOutlined,
};

/** Icon by antd component name (menu `source`); unknown or empty names show AppstoreOutlined. */
export default function MenuIcon({ name, className }: { name?: string; className?: string }) {
  const C = (name && ICONS[name]) || AppstoreOutlined;
  return <C className={className} />;
}

export const MENU_ICON_NAMES: readonly string[] = Object.keys(ICONS);
