/**
 * The icons a menu `source` may name (the seeded menus' icons and common extras), each named once:
 * menuIconSet.ts takes this module's namespace as its map. Only what is listed here is bundled.
 */
export {
  AccountBookOutlined, AimOutlined, AlertOutlined, ApartmentOutlined, ApiOutlined, AppstoreOutlined,
  AuditOutlined, BankOutlined, BarChartOutlined, BarcodeOutlined, BellOutlined, BlockOutlined, BookOutlined,
  BranchesOutlined, BugOutlined, BuildOutlined, CalculatorOutlined, CalendarOutlined, CarOutlined,
  CarryOutOutlined, CheckCircleOutlined, CheckSquareOutlined, CloudDownloadOutlined, CloudOutlined,
  CloudServerOutlined, CloudUploadOutlined, ClusterOutlined, CodeOutlined, CodeSandboxOutlined,
  CommentOutlined, ContactsOutlined, ContainerOutlined, ControlOutlined, CopyOutlined, CrownOutlined,
  CustomerServiceOutlined, DashboardOutlined, DatabaseOutlined, DeleteOutlined, DeploymentUnitOutlined,
  DesktopOutlined, DollarOutlined, DownloadOutlined, EditOutlined, EnvironmentOutlined, ExperimentOutlined,
  ExportOutlined, EyeOutlined, FieldTimeOutlined, FileDoneOutlined, FileExcelOutlined, FileOutlined,
  FileProtectOutlined, FileSearchOutlined, FileTextOutlined, FilterOutlined, FolderOutlined, FormOutlined,
  FundOutlined, GiftOutlined, GlobalOutlined, GoldOutlined, HddOutlined, HomeOutlined, IdcardOutlined,
  ImportOutlined, InboxOutlined, InteractionOutlined, KeyOutlined, LaptopOutlined, LayoutOutlined,
  LineChartOutlined, LinkOutlined, LockOutlined, LoginOutlined, LogoutOutlined, MailOutlined, MenuOutlined,
  MessageOutlined, MoneyCollectOutlined, MonitorOutlined, NodeIndexOutlined, NotificationOutlined,
  NumberOutlined, PaperClipOutlined, PartitionOutlined, PictureOutlined, PlayCircleOutlined, PlusOutlined,
  PoweroffOutlined, PrinterOutlined, ProductOutlined, ProfileOutlined, ProjectOutlined, ReadOutlined,
  ReconciliationOutlined, RetweetOutlined, RollbackOutlined, SafetyCertificateOutlined, SafetyOutlined,
  ScanOutlined, ScheduleOutlined, SelectOutlined, SendOutlined, SettingOutlined, ShopOutlined,
  ShoppingCartOutlined, ShoppingOutlined, SlidersOutlined, SnippetsOutlined, SolutionOutlined, StopOutlined,
  SwapOutlined, SyncOutlined, TableOutlined, TagOutlined, TagsOutlined, TeamOutlined, ToolOutlined,
  TrophyOutlined, TruckOutlined, UnlockOutlined, UnorderedListOutlined, UploadOutlined, UserAddOutlined,
  UserOutlined, UserSwitchOutlined, UsergroupAddOutlined, VerticalAlignBottomOutlined, VideoCameraOutlined,
  WalletOutlined,
} from '@ant-design/icons';
