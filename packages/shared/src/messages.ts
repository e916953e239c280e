/**
 * Messages that both the server and the console show, in Chinese (the spec's, the default) and
 * English. The server picks the language from Accept-Language; the console from its own setting.
 */
export type Lang = 'zh-CN' | 'en-US';

export const MESSAGES = {
  // spec 5: validation
  newPasswordRequired: { 'zh-CN': '新密码不能为空!', 'en-US': 'New password is required!' },
  oldPasswordRequired: { 'zh-CN': '原始密码不能为空!', 'en-US': 'Original password is required!' },
  confirmPasswordRequired: { 'zh-CN': '确认新密码不能为空!', 'en-US': 'Confirmation is required!' },
  adminUsernameRequired: { 'zh-CN': '请输入管理员登录名', 'en-US': 'Enter the administrator login name' },
  sipPasswordRequired: { 'zh-CN': 'SIP密码不能为空!', 'en-US': 'SIP password is required!' },
  ehomePasswordRequired: { 'zh-CN': 'EHOME密码不能为空!', 'en-US': 'EHOME password is required!' },
  networkRequired: { 'zh-CN': '请选择网络!', 'en-US': 'Please choose a network!' },
  passwordRule: {
    'zh-CN': '密码最少8位，需包含大写字母、小写字母、数字、特殊字符中的三种',
    'en-US': 'At least 8 characters, containing three of upper case, lower case, digits and special characters',
  },
  passwordSameAsOld: { 'zh-CN': '新密码与原始密码相同，请重新输入', 'en-US': 'The new password is the same as the original, re-enter' },
  passwordMismatch: { 'zh-CN': '新密码与确认密码不一致，请重新输入', 'en-US': 'The new password differs from the confirmation, re-enter' },
  platformNameRequired: { 'zh-CN': '平台名称不能为空', 'en-US': 'Platform name is required' },
  platformUrlRequired: { 'zh-CN': '服务地址不能为空', 'en-US': 'Service address is required' },
  platformUserRequired: { 'zh-CN': '用户名不能为空', 'en-US': 'User name is required' },
  platformPasswordRequired: { 'zh-CN': '用户密码不能为空', 'en-US': 'User password is required' },
  serviceNameRequired: { 'zh-CN': '服务名称不能为空!', 'en-US': 'Service name is required!' },
  invalidFormat: { 'zh-CN': '输入格式不合法！', 'en-US': 'Invalid format!' },
  fillRequired: { 'zh-CN': '请填入必选项!', 'en-US': 'Please fill in the required fields!' },
  // spec 8: results
  initSuccess: { 'zh-CN': '初始化成功，3秒后跳转到登录页', 'en-US': 'Initialisation succeeded, redirecting to login in 3 seconds' },
  passwordChanged: { 'zh-CN': '修改成功', 'en-US': 'Changed successfully' },
  saved: { 'zh-CN': '修改成功!', 'en-US': 'Saved!' },
  success: { 'zh-CN': '操作成功', 'en-US': 'Done' },
  channelOffline: { 'zh-CN': '通道已离线!', 'en-US': 'The channel is offline!' },
  channelDisabled: { 'zh-CN': '通道未开启!', 'en-US': 'The channel is not enabled!' },
  favouriteAdded: { 'zh-CN': '‘{name}’通道已添加收藏夹!', 'en-US': '‘{name}’ added to favourites!' },
  favouriteRemoved: { 'zh-CN': '已移除收藏夹!', 'en-US': 'Removed from favourites!' },
  ipSet: { 'zh-CN': 'IP设置成功!', 'en-US': 'IP set successfully!' },
  analysisListFailed: { 'zh-CN': '获取智能分析平台列表异常', 'en-US': 'Failed to load the analysis platform list' },
  ieNotSupported: {
    'zh-CN': '本软件不支持IE内核浏览器，请切换浏览器',
    'en-US': 'This software does not support IE-core browsers, please switch browser',
  },
  // server errors
  badCredentials: { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong user name or password' },
  loginLocked: {
    'zh-CN': '登录失败次数过多，请{minutes}分钟后再试',
    'en-US': 'Too many failed logins, try again in {minutes} minutes',
  },
  userDisabled: { 'zh-CN': '用户已被禁用', 'en-US': 'This user is disabled' },
  unauthorized: { 'zh-CN': '登录已失效，请重新登录', 'en-US': 'Your session has expired, please log in again' },
  forbidden: { 'zh-CN': '没有权限执行此操作', 'en-US': 'You are not allowed to do this' },
  mustChangePassword: { 'zh-CN': '请先修改密码', 'en-US': 'Please change your password first' },
  initialRequired: { 'zh-CN': '请先完成系统初始化', 'en-US': 'Please finish the first-run initialisation first' },
  alreadyInitialised: { 'zh-CN': '系统已完成初始化', 'en-US': 'The platform is already initialised' },
  oldPasswordWrong: { 'zh-CN': '原始密码错误', 'en-US': 'The original password is wrong' },
  invalidParam: { 'zh-CN': '参数 {field} 不合法: {reason}', 'en-US': 'Invalid parameter {field}: {reason}' },
  notFound: { 'zh-CN': '{what}不存在', 'en-US': '{what} does not exist' },
  duplicate: { 'zh-CN': '{what}已存在', 'en-US': '{what} already exists' },
  cannotDeleteSelf: { 'zh-CN': '不能删除当前登录用户', 'en-US': 'You cannot delete yourself' },
  cannotDeleteLastAdmin: { 'zh-CN': '不能删除最后一个管理员', 'en-US': 'You cannot delete the last administrator' },
  cannotChangeBuiltinRole: { 'zh-CN': '不能修改或删除内置管理员角色', 'en-US': 'The built-in admin role cannot be changed or deleted' },
  roleInUse: { 'zh-CN': '角色仍有用户使用，不能删除', 'en-US': 'The role still has users and cannot be deleted' },
  internalError: { 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' },
  routeNotFound: { 'zh-CN': '接口不存在', 'en-US': 'No such call' },
  payloadTooLarge: { 'zh-CN': '请求体过大', 'en-US': 'Request body too large' },
  shareExpired: { 'zh-CN': '分享链接已过期', 'en-US': 'This shared link has expired' },
  shareInvalid: { 'zh-CN': '分享链接无效', 'en-US': 'This shared link is not valid' },
  streamStoppedBecause: { 'zh-CN': '直播已停止：{reason}', 'en-US': 'The live stream stopped: {reason}' },
  playTokenInvalid: { 'zh-CN': '播放地址无效或已过期', 'en-US': 'This play address is not valid or has expired' },
  ipNotLocal: { 'zh-CN': 'IP地址格式不合法', 'en-US': 'Invalid IP address' },
  ptzNotSupported: { 'zh-CN': '该通道不支持云台控制（不是 ONVIF 或 GB28181 通道）', 'en-US': 'This channel has no PTZ control (neither ONVIF nor GB28181)' },
  onvifTimeout: { 'zh-CN': '设备 {address} 在 {ms} 毫秒内无应答', 'en-US': 'The device at {address} did not answer within {ms} ms' },
  onvifAuthFailed: { 'zh-CN': '设备 {address} 拒绝了用户名或密码', 'en-US': 'The device at {address} refused the user name or password' },
  onvifNotOnvif: { 'zh-CN': '{address} 不是 ONVIF 设备: {reason}', 'en-US': 'The device at {address} is not an ONVIF device: {reason}' },
  onvifUnreachable: { 'zh-CN': '无法连接设备 {address}: {reason}', 'en-US': 'Cannot reach the device at {address}: {reason}' },
  // GB28181 administration (issue 6): lists, settings, alarms
  gbListEntryEmpty: { 'zh-CN': '设备编号和IP地址至少填写一项', 'en-US': 'Fill in the device ID, the IP address or both' },
  gbListBadAddress: {
    'zh-CN': 'IP地址 {ip} 格式不合法（可填单个地址或网段，如 192.168.1.0/24）',
    'en-US': 'The address {ip} is not valid (one address or a block such as 192.168.1.0/24)',
  },
  gbRtpRangeInvalid: {
    'zh-CN': 'RTP端口范围不合法：起始端口 {min} 必须小于结束端口 {max}',
    'en-US': 'Invalid RTP port range: the first port {min} must be below the last {max}',
  },
  // GB28181 device management (issue 6): catalog, device info, controls
  gbNotGbDevice: { 'zh-CN': '设备 {device} 不是GB28181设备', 'en-US': 'Device {device} is not a GB28181 device' },
  gbNotRegistered: {
    'zh-CN': '设备 {device} 未注册或已离线，无法下发命令',
    'en-US': 'Device {device} is not registered (offline); the command cannot be sent',
  },
  gbNoAnswer: { 'zh-CN': '设备 {device} 无应答: {reason}', 'en-US': 'Device {device} did not answer: {reason}' },
  gbRefused: { 'zh-CN': '设备 {device} 拒绝了命令: {reason}', 'en-US': 'Device {device} refused the command: {reason}' },
  playbackSessionsBusy: { 'zh-CN': '同时进行的录像回放已达上限（{max} 路），请稍后再试', 'en-US': 'Too many recording playbacks at once (at most {max}); try again later' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof MESSAGES;

/**
 * What a notFound or duplicate message is about ({what}), in the same two languages: the server names
 * a thing the request pointed at, and a Chinese page must not read "device 1不存在". {what} begins
 * the message, so the English begins with a capital: "Channel 43/1 does not exist" (session 26).
 */
export const SUBJECTS = {
  device: { 'zh-CN': '设备 {id}', 'en-US': 'Device {id}' },
  channel: { 'zh-CN': '通道 {id}', 'en-US': 'Channel {id}' },
  label: { 'zh-CN': '标签 {id}', 'en-US': 'Label {id}' },
  role: { 'zh-CN': '角色 {id}', 'en-US': 'Role {id}' },
  user: { 'zh-CN': '用户 {id}', 'en-US': 'User {id}' },
  recordPlan: { 'zh-CN': '录像计划 {id}', 'en-US': 'Recording plan {id}' },
  recording: { 'zh-CN': '录像 {id}', 'en-US': 'Recording {id}' },
  recordingsFrom: { 'zh-CN': '通道 {id} 自 {from} 起的录像', 'en-US': 'A recording of {id} from {from}' },
  recordingsRange: { 'zh-CN': '通道 {id} 在 {from} 至 {to} 的录像', 'en-US': 'A recording of {id} from {from} to {to}' },
  playback: { 'zh-CN': '回放 {id}', 'en-US': 'Playback {id}' },
  playbackSession: { 'zh-CN': '回放会话', 'en-US': 'Playback session' },
  playbackSocket: { 'zh-CN': '回放连接', 'en-US': 'Playback socket' },
  download: { 'zh-CN': '下载任务 {id}', 'en-US': 'Download {id}' },
  webrtcSession: { 'zh-CN': 'WebRTC 会话', 'en-US': 'WebRTC session' },
  stream: { 'zh-CN': '流 {id}', 'en-US': 'Stream {id}' },
  file: { 'zh-CN': '文件 {id}', 'en-US': 'File {id}' },
  snapshot: { 'zh-CN': '快照', 'en-US': 'Snapshot' },
  whitelistEntry: { 'zh-CN': '白名单条目', 'en-US': 'Whitelist entry' },
  blacklistEntry: { 'zh-CN': '黑名单条目', 'en-US': 'Blacklist entry' },
  news: { 'zh-CN': '消息 {id}', 'en-US': 'Message {id}' },
} as const satisfies Record<string, Record<Lang, string>>;

export type SubjectKey = keyof typeof SUBJECTS;

/**
 * Why a value or a call was refused: the {reason} of invalidParam, gbNoAnswer, gbRefused. Parameter
 * names (stime, period, RecordPath, Monday …) and formats (YYYYMMDD) are the API's and stay as
 * they are in both languages; words a device or the OS wrote come in through {detail} unchanged.
 */
export const REASONS = {
  // a value that is missing or of the wrong form
  required: { 'zh-CN': '不能为空', 'en-US': 'required' },
  format: { 'zh-CN': '格式须为{format}', 'en-US': 'must be {format}' },
  notDate: { 'zh-CN': '不是YYYYMMDD格式的日期', 'en-US': 'not a date YYYYMMDD' },
  notMonth: { 'zh-CN': '不是YYYYMM格式的月份', 'en-US': 'not a month YYYYMM' },
  notLocalTime: { 'zh-CN': '不是YYYYMMDDHHmmss格式的本地时间', 'en-US': 'not a local time YYYYMMDDHHmmss' },
  zeroOrLocalTime: { 'zh-CN': '须为0或YYYYMMDDHHmmss', 'en-US': '0 or YYYYMMDDHHmmss' },
  timeOrTimeRange: {
    'zh-CN': '须为YYYYMMDDHHmmss或YYYYMMDDHHmmss-YYYYMMDDHHmmss',
    'en-US': 'YYYYMMDDHHmmss or YYYYMMDDHHmmss-YYYYMMDDHHmmss',
  },
  alarmTime: { 'zh-CN': '须为YYYYMMDDHHmmss、ISO-8601时间或毫秒时间戳', 'en-US': 'YYYYMMDDHHmmss, ISO-8601 or epoch milliseconds' },
  digits: { 'zh-CN': '须为{count}位数字', 'en-US': '{count} digits' },
  oneOf: { 'zh-CN': '须为 {values} 之一', 'en-US': 'one of {values}' },
  allowedChars: { 'zh-CN': '只能包含字母、数字和 {chars}', 'en-US': 'letters, digits and {chars} only' },
  md5Hex: { 'zh-CN': '须为32位十六进制的MD5摘要', 'en-US': 'must be a 32-character md5 hex digest' },
  hostOrIp: { 'zh-CN': '须为IP地址或主机名', 'en-US': 'must be an IP address or a host name' },
  hostOrIpv4: { 'zh-CN': '须为IPv4地址或主机名', 'en-US': 'must be an IPv4 address or a host name' },
  streamUrl: { 'zh-CN': '须为 rtsp(s)://、rtmp(s):// 或 http(s):// 地址', 'en-US': 'must be an rtsp(s)://, rtmp(s):// or http(s):// URL' },
  tlsFingerprint: {
    'zh-CN': '须为 SHA-256 证书指纹（64 位十六进制，可用冒号两两分隔），留空则清除记录',
    'en-US': 'a SHA-256 certificate fingerprint (64 hex digits, colons between pairs allowed), or empty to clear the pin',
  },
  tlsPinNotRtsps: { 'zh-CN': '只有 rtsps:// 或 https:// 通道才记录证书指纹', 'en-US': 'only an rtsps:// or https:// channel has a pinned certificate' },
  idList: { 'zh-CN': '须为逗号分隔的编号，每个最长64位，只能包含字母、数字和 _ . -', 'en-US': 'IDs separated by commas, each up to 64 letters, digits and _ . -' },
  notJson: { 'zh-CN': '不是合法的JSON', 'en-US': 'not JSON' },
  channelRefList: { 'zh-CN': '须为“设备:通道”的列表', 'en-US': 'a list of device:channel' },
  gbChannelRef: { 'zh-CN': '须为“设备:通道”或20位GB28181通道编号', 'en-US': 'device:channel or a 20-digit GB channel ID' },
  recordingId: { 'zh-CN': '须为录像编号', 'en-US': 'a recording id' },
  gbDeviceIdRequired: { 'zh-CN': 'GB28181设备须填写20位设备编号', 'en-US': 'a GB28181 device needs its 20-digit DeviceID' },
  // which parameters a call needs together
  giveOneOf: { 'zh-CN': '请给出 {first}，或 {second}', 'en-US': 'give {first} or {second}' },
  needsWith: { 'zh-CN': '须与 {other} 一起给出', 'en-US': 'needs {other}' },
  channelCountBetween: { 'zh-CN': '须为{min}到{max}个通道', 'en-US': 'between {min} and {max} channels' },
  atMostPlayers: { 'zh-CN': '最多{max}个播放器', 'en-US': 'at most {max} players' },
  // time ranges
  afterStartWithinDays: { 'zh-CN': '须晚于开始时间（{start}）且不超过{days}天', 'en-US': 'after {start}, at most {days} days later' },
  afterStartWithinHours: {
    'zh-CN': '设备录像须晚于开始时间（{start}）且不超过{hours}小时',
    'en-US': 'at most {hours} hours after {start} for a device recording',
  },
  seekTimeRequired: { 'zh-CN': '请给出要跳转到的时间（YYYYMMDDHHmmss）', 'en-US': 'YYYYMMDDHHmmss to seek to' },
  insidePlaybackRange: { 'zh-CN': '须在回放的时间范围内', 'en-US': 'inside the playback range' },
  insideRecording: { 'zh-CN': '须在该录像的时间范围内', 'en-US': 'inside the recording' },
  deviceSpeeds: { 'zh-CN': '设备录像只能以 {values} 倍速播放', 'en-US': 'a device recording plays at {values}' },
  // channels, streams, recordings
  noStreamSource: { 'zh-CN': '该通道没有视频源', 'en-US': 'this channel has no stream source' },
  // a channel pulled through ffmpeg (RTMP, HTTP-FLV): the hub's state reason, shown by the console in its language
  pullHevcFlvNeedsFfmpeg61: {
    'zh-CN': '该流为 FLV/RTMP 承载的 H.265，服务器的 ffmpeg 版本过旧无法读取（需 6.1 及以上，支持 Enhanced RTMP）',
    'en-US': 'the stream is H.265 in FLV/RTMP, which this server’s ffmpeg is too old to read (needs 6.1 or newer, with enhanced RTMP)',
  },
  // a WebRTC (WHEP) offer the server cannot answer (routes/media/webrtc.ts, media/outputs/webrtc.ts)
  whepNotSdp: { 'zh-CN': '请求须为 application/sdp 类型的 SDP offer', 'en-US': 'the offer must be application/sdp' },
  whepNotOffer: { 'zh-CN': '请求体不是 SDP offer', 'en-US': 'the body is not an SDP offer' },
  whepNotH264: { 'zh-CN': '该流为 {codec}，WebRTC 只能播放 H.264（请请求转码后的流）', 'en-US': 'the stream is {codec}; WebRTC plays H.264 (ask for the transcoded stream)' },
  whepNoVideo: { 'zh-CN': '该流没有视频', 'en-US': 'the stream has no video' },
  whepNoH264Offer: { 'zh-CN': 'offer 中没有 packetization-mode=1 的 H.264', 'en-US': 'the offer has no H.264 with packetization-mode=1' },
  whepCannotAnswer: { 'zh-CN': '无法应答该 offer（详情见服务器日志）', 'en-US': 'cannot answer the offer (details in the server log)' },
  hlsTooFarAhead: { 'zh-CN': '超出直播位置太远', 'en-US': 'too far ahead of the live edge' },
  labelUnderItself: { 'zh-CN': '标签不能移到它自己之下', 'en-US': 'a label cannot move under itself' },
  recordingImportant: { 'zh-CN': '该录像已标记为重要，请先取消标记', 'en-US': 'the recording is marked important; unmark it first' },
  recordingBeingWritten: { 'zh-CN': '该录像仍在写入', 'en-US': 'the recording is still being written' },
  recordingOutsideFolder: { 'zh-CN': '录像文件不在录像目录中', 'en-US': 'the recording file is outside the record folder' },
  absoluteFolder: { 'zh-CN': '须为文件夹的绝对路径', 'en-US': 'must be an absolute folder path' },
  systemFolder: { 'zh-CN': '系统文件夹不能存放录像', 'en-US': 'a system folder cannot hold recordings' },
  folderNotWritable: { 'zh-CN': '文件夹不可写（{code}）', 'en-US': 'not a writable folder ({code})' },
  lessThanDisk: { 'zh-CN': '须小于录像文件夹所在磁盘的容量（{gb} GB，即 {size} 字节）', 'en-US': "must be less than the size of the record folder's disk ({gb} GB, {size} bytes)" },
  downloadNotReady: { 'zh-CN': '下载尚未完成', 'en-US': 'the download is not finished yet' },
  downloadFailed: { 'zh-CN': '下载失败: {detail}', 'en-US': 'the download failed: {detail}' },
  // how a playback of the platform's own recordings ended or stopped (the reason of the playback socket's state, playState)
  playbackEnded: { 'zh-CN': '已播放到所选时间范围或录像的结尾', 'en-US': 'the end of the range or of the recordings' },
  playbackFileShort: { 'zh-CN': '录像文件比索引记录的短（已被删除或截断）', 'en-US': 'the recording file is shorter than its index says' },
  playbackFileUnreadable: { 'zh-CN': '无法读取录像文件（{code}）', 'en-US': 'the recording file cannot be read ({code})' },
  playbackFailed: { 'zh-CN': '回放因服务器错误而停止，详情见服务器日志', 'en-US': 'the playback stopped on a server error (see the server log)' },
  playbackTranscodeBusy: {
    'zh-CN': '同时转码为 H.264 的回放已达上限（{max} 路），请稍后再试，或下载录像用本地播放器观看',
    'en-US': 'too many playbacks are being transcoded to H.264 at once (at most {max}); try again later, or download the recording',
  },
  playbackTrackLeftOut: {
    'zh-CN': '浏览器（MSE）无法播放，回放时略去；下载的文件保留此轨道',
    'en-US': 'not playable in a browser (MSE): left out of playback; the download keeps it',
  },
  // recording schedules (packages/shared/src/schedule.ts)
  scheduleNotWeek: { 'zh-CN': '须为周一至周日（Monday..Sunday）的时段列表', 'en-US': 'schedule must be an object of Monday..Sunday lists' },
  scheduleUnknownDay: { 'zh-CN': '未知的星期 {day}', 'en-US': 'unknown day {day}' },
  scheduleDayNotList: { 'zh-CN': '{day} 须为时段列表', 'en-US': '{day} must be a list of slots' },
  scheduleSlotNotObject: { 'zh-CN': '{slot} 须含 StartTime 和 EndTime', 'en-US': '{slot} must have StartTime and EndTime' },
  scheduleBadTime: { 'zh-CN': '{slot}.{field} 须为 HH:mm 或 HH:mm:ss', 'en-US': '{slot}.{field} must be HH:mm or HH:mm:ss' },
  scheduleSameTime: { 'zh-CN': '{slot} 的开始时间与结束时间相同', 'en-US': '{slot} starts and ends at the same time' },
  // PTZ
  gbPreset: { 'zh-CN': 'GB28181预置位须为1到255的数字', 'en-US': 'a GB28181 preset is a number from 1 to 255' },
  dragZoomGbOnly: { 'zh-CN': '拖拽缩放只支持GB28181通道', 'en-US': 'drag zoom is a GB28181 control (not a GB channel)' },
  rectangleInPicture: { 'zh-CN': '矩形须在画面之内（length × width）', 'en-US': 'the rectangle must lie inside the picture (length × width)' },
  notOnOnvif: { 'zh-CN': 'ONVIF通道不支持 {command}', 'en-US': '{command} is not available on ONVIF channels' },
  // An encoder's or parser's own words (MidPointX, m= line …) are the log's: the user is told in their language.
  gbCommandInvalid: { 'zh-CN': '无法组成GB28181命令（详情见服务器日志）', 'en-US': 'cannot make the GB28181 command (details in the server log)' },
  // reaching an ONVIF device (the {reason} of onvifUnreachable and onvifNotOnvif)
  connectionRefused: { 'zh-CN': '连接被拒绝', 'en-US': 'connection refused' },
  connectionReset: { 'zh-CN': '连接被重置', 'en-US': 'connection reset' },
  hostUnreachable: { 'zh-CN': '主机不可达', 'en-US': 'host unreachable' },
  hostNotFound: { 'zh-CN': '找不到主机', 'en-US': 'host not found' },
  unexpectedAnswer: { 'zh-CN': '无法识别设备的应答', 'en-US': 'unexpected answer' },
  noPtzService: { 'zh-CN': '设备没有云台（PTZ）服务', 'en-US': 'the device has no PTZ service' },
  // why a channel or device is offline (StatusReason of the channel list and the GB device information):
  // the stream checker's and the GB service's words, rendered per answer (services/inventory/status-reason.ts)
  statusTimedOut: { 'zh-CN': '连接超时', 'en-US': 'connection timed out' },
  statusNoAnswerWithin: { 'zh-CN': '{ms}毫秒内无应答', 'en-US': 'no answer within {ms} ms' },
  statusClosedByCamera: { 'zh-CN': '摄像机关闭了连接', 'en-US': 'connection closed by the camera' },
  statusSocketError: { 'zh-CN': '网络错误（{code}）', 'en-US': 'network error ({code})' },
  statusUnauthorized: { 'zh-CN': '摄像机拒绝了用户名或密码（{status} {phrase}）', 'en-US': 'the camera refused the user name or password ({status} {phrase})' },
  statusAnswered: { 'zh-CN': '摄像机回应 {status} {phrase}', 'en-US': 'the camera answered {status} {phrase}' },
  statusBadUrl: { 'zh-CN': '视频源地址不合法', 'en-US': 'invalid stream URL' },
  statusRtspsUnsupported: { 'zh-CN': '暂不支持 rtsps:// 地址', 'en-US': 'rtsps:// is not supported yet' },
  statusNotRtspUrl: { 'zh-CN': '不是 rtsp:// 地址（{protocol}）', 'en-US': 'not an rtsp:// URL ({protocol})' },
  statusNotRtsp: { 'zh-CN': '对端的应答不是RTSP', 'en-US': 'the answer is not RTSP' },
  statusNoMedia: { 'zh-CN': '摄像机的SDP中没有媒体', 'en-US': 'no media in the SDP' },
  statusNotSdp: { 'zh-CN': '摄像机的应答不是SDP（{type}）', 'en-US': 'the answer is not SDP ({type})' },
  statusCheckFailed: { 'zh-CN': '检测失败（详情见服务器日志）', 'en-US': 'the check failed (details in the server log)' },
  statusKeepaliveTimeout: { 'zh-CN': '心跳超时', 'en-US': 'keepalive timeout' },
  statusRegistrationExpired: { 'zh-CN': '注册已过期', 'en-US': 'registration expired' },
  statusUnregistered: { 'zh-CN': '设备已注销', 'en-US': 'the device unregistered' },
  statusWithDevice: { 'zh-CN': '设备离线', 'en-US': 'the device is offline' },
  statusDeviceDisabled: { 'zh-CN': '设备未开启', 'en-US': 'the device is not enabled' },
  statusChannelDisabled: { 'zh-CN': '通道未开启', 'en-US': 'the channel is not enabled' },
  statusCatalogOff: { 'zh-CN': '设备报告通道离线（OFF）', 'en-US': 'the device reported it offline (OFF)' },
  statusCatalogVideoLost: { 'zh-CN': '设备报告视频丢失（VLOST）', 'en-US': 'the device reported video lost (VLOST)' },
  statusCatalogDefect: { 'zh-CN': '设备报告通道故障（DEFECT）', 'en-US': 'the device reported a defect (DEFECT)' },
  // the pull probe's (access/rtmp/probe.ts, access/http-stream-probe.ts): the server answers, the stream may not be there
  statusClosedByServer: { 'zh-CN': '服务器关闭了连接', 'en-US': 'connection closed by the server' },
  statusNoSuchStream: { 'zh-CN': '服务器上没有这路流（{code}）', 'en-US': 'the server has no such stream ({code})' },
  statusRtmpConnectRefused: { 'zh-CN': '服务器拒绝了RTMP连接（{code}）', 'en-US': 'the server refused the RTMP connection ({code})' },
  statusRtmpPlayRefused: { 'zh-CN': '服务器拒绝播放这路流（{code}）', 'en-US': 'the server refused to play the stream ({code})' },
  statusRtmpNoAnswerTo: { 'zh-CN': 'RTMP {command} 请求在{ms}毫秒内未得到应答', 'en-US': 'no answer to RTMP {command} within {ms} ms' },
  statusNotRtmp: { 'zh-CN': '对端不是RTMP服务器', 'en-US': 'the server does not speak RTMP' },
  statusRtmpAuthRequired: { 'zh-CN': 'RTMP服务器要求用户名和密码（{method}）', 'en-US': 'the RTMP server requires a username and password ({method})' },
  statusRtmpAuthFailed: { 'zh-CN': 'RTMP服务器拒绝了用户名或密码（{method}）', 'en-US': 'the RTMP server refused the username or password ({method})' },
  statusRtmpAuthUnsupported: {
    'zh-CN': 'RTMP服务器要求的认证方式（{method}）不受支持',
    'en-US': 'the RTMP server asks for an authentication method that is not supported ({method})',
  },
  statusNoMediaWithin: {
    'zh-CN': '服务器接受了播放，但{ms}毫秒内没有音视频（这路流可能无人推送）',
    'en-US': 'the server accepted play but sent no audio or video within {ms} ms (is anyone publishing the stream?)',
  },
  statusNotFlv: { 'zh-CN': '应答不是FLV流', 'en-US': 'the answer is not an FLV stream' },
  statusNotHls: { 'zh-CN': '应答不是HLS播放列表', 'en-US': 'the answer is not an HLS playlist' },
  statusHlsNoVariant: { 'zh-CN': 'HLS主播放列表中没有可用的子流', 'en-US': 'the HLS master playlist lists no variant' },
  statusHlsNoSegment: { 'zh-CN': 'HLS播放列表中没有分片', 'en-US': 'the HLS playlist lists no segment' },
  statusHlsEnded: { 'zh-CN': 'HLS播放列表已结束（EXT-X-ENDLIST），是录像而不是直播', 'en-US': 'the HLS playlist has ended (EXT-X-ENDLIST): a recording, not a live stream' },
  statusHlsStale: {
    'zh-CN': 'HLS播放列表{seconds}秒内没有更新（直播源可能已停止）',
    'en-US': 'the HLS playlist did not change within {seconds} s (has the live source stopped?)',
  },
  statusWebPage: { 'zh-CN': '应答是网页，不是视频流', 'en-US': 'the answer is a web page, not a stream' },
  statusBadRedirect: { 'zh-CN': '服务器重定向（{status}）到无效的地址', 'en-US': 'the server redirected ({status}) to an invalid address' },
  statusRedirectNotFollowed: {
    'zh-CN': '服务器重定向（{status}）到 {protocol}// 地址，不予跟随',
    'en-US': 'the server redirected ({status}) to a {protocol}// address, which is not followed',
  },
  statusEmptyAnswer: { 'zh-CN': '服务器的应答为空', 'en-US': 'the server sent an empty answer' },
  // asking a GB28181 device (the {reason} of gbNoAnswer and gbRefused)
  gbNoAnswerWithin: { 'zh-CN': '{method} 请求在{ms}毫秒内未得到应答', 'en-US': 'no answer to {method} within {ms} ms' },
  gbTransactionTimeout: { 'zh-CN': '{method} 请求超时（SIP事务超时）', 'en-US': 'no answer to {method} (transaction timed out)' },
  gbNoResponseWithin: { 'zh-CN': '{ms}毫秒内未收到 {cmdType} 应答', 'en-US': 'no {cmdType} response within {ms} ms' },
  gbCannotSend: { 'zh-CN': '无法发送: {detail}', 'en-US': 'cannot send: {detail}' },
  gbTcpConnectionGone: {
    'zh-CN': '设备的TCP连接（{address}）已断开，请等待设备重新连接并注册',
    'en-US': "the device's TCP connection ({address}) is gone: wait for it to reconnect and register",
  },
  gbSipNotRunning: { 'zh-CN': 'SIP服务未运行', 'en-US': 'the SIP service is not running' },
  gbServiceStopping: { 'zh-CN': 'GB28181服务正在停止', 'en-US': 'the GB service is stopping' },
  gbAnswered: { 'zh-CN': '设备回应 {status} {phrase}', 'en-US': 'the device answered {status} {phrase}' },
  // a failure on our side while asking a device (a session closed meanwhile, an error of the server): its words are the log's
  gbRequestFailed: { 'zh-CN': '服务器未能完成对设备的请求（详情见服务器日志）', 'en-US': 'the server could not complete the request to the device (details in the server log)' },
  deviceInfoUnreadable: { 'zh-CN': '无法读取设备信息', 'en-US': 'the device information could not be read' },
  gbResultError: { 'zh-CN': '设备回应 Result ERROR', 'en-US': 'the device answered Result ERROR' },
  gbTooManyPlaybacks: { 'zh-CN': '设备录像的回放会话已达上限', 'en-US': 'too many device playback sessions' },
  gbTooManyDownloads: { 'zh-CN': '同时进行的设备录像下载已达上限', 'en-US': 'too many device downloads at once' },
  gbPlaybackNotRunning: { 'zh-CN': '回放尚未开始或已结束', 'en-US': 'the playback has not started or has ended' },
  gbControlRefused: { 'zh-CN': '{command} 请求（{status} {phrase}）', 'en-US': 'the device refused {command}: {status} {phrase}' },
  // how a device playback or download ended (the Reason of streaminfo, playState, the playback socket's state)
  gbRecordingEnd: { 'zh-CN': '录像已到结尾（设备发送 MediaStatus 121）', 'en-US': 'the recording reached its end (MediaStatus 121)' },
  gbDeviceSentBye: { 'zh-CN': '设备结束了会话（BYE）', 'en-US': 'the device ended the session (BYE)' },
  // an offline reason or a session end without a text of its own: the words are the log's (gb/invite/client.ts, gb/records/service.ts)
  gbDeviceWentOffline: { 'zh-CN': '设备已离线', 'en-US': 'the device went offline' },
  gbOfflineKeepalive: { 'zh-CN': '设备已离线（心跳超时）', 'en-US': 'the device went offline (keepalive timeout)' },
  gbOfflineExpired: { 'zh-CN': '设备已离线（注册已过期）', 'en-US': 'the device went offline (registration expired)' },
  gbOfflineUnregistered: { 'zh-CN': '设备已离线（设备已注销）', 'en-US': 'the device went offline (it unregistered)' },
  gbSessionEnded: { 'zh-CN': '设备的媒体会话已结束', 'en-US': 'the media session with the device ended' },
  gbMediaFailed: { 'zh-CN': '接收设备媒体失败（详情见服务器日志）', 'en-US': 'receiving the device media failed (details in the server log)' },
  gbDeviceStoppedSending: { 'zh-CN': '设备已停止发送（{seconds}秒内未收到数据）', 'en-US': 'the device stopped sending (nothing for {seconds} s)' },
  gbNoPicture: { 'zh-CN': '设备未发送任何画面', 'en-US': 'the device sent no picture' },
  // why receiving a device's media failed (gb/media: the RTP receiver and the PS source), for a device playback's socket and a download
  gbRtpReceiverClosed: { 'zh-CN': '接收端已关闭', 'en-US': 'the RTP receiver was closed' },
  gbRtpWrongSsrc: {
    'zh-CN': '收到的RTP流SSRC为 {got}，与点播的 {expected} 不一致（已丢弃{count}个包）',
    'en-US': 'RTP arrived only with SSRC {got} while {expected} was expected ({count} packets dropped)',
  },
  gbRtpNotRtp: { 'zh-CN': '{seconds}秒内收到{count}个数据包，但都不是RTP', 'en-US': '{count} packets arrived within {seconds} s but none was RTP' },
  gbNoRtpUdp: {
    'zh-CN': '{seconds}秒内未在UDP端口 {port} 收到设备的视频流：请检查告知设备的媒体IP（{ip}）及该端口是否可达',
    'en-US': 'no RTP received on UDP port {port} within {seconds} s: check the media IP announced ({ip}) and that the port is reachable from the device',
  },
  gbTcpNoRtp: { 'zh-CN': '设备已连接TCP端口 {port}，但{seconds}秒内未发送RTP', 'en-US': 'the device connected to TCP port {port} but sent no RTP within {seconds} s' },
  gbTcpNotConnected: {
    'zh-CN': '设备在{seconds}秒内未连接TCP端口 {port}：请检查告知设备的媒体IP（{ip}）及该端口是否可达',
    'en-US': 'the device did not connect to TCP port {port} within {seconds} s: check the media IP announced ({ip}) and that the port is reachable from the device',
  },
  gbTcpActiveNoRtp: { 'zh-CN': '{seconds}秒内未通过TCP收到设备的视频流（{address}）', 'en-US': 'no RTP received from the device over TCP ({address}) within {seconds} s' },
  gbTcpActiveNoAddress: {
    'zh-CN': 'TCP主动模式：设备的SDP应答中没有可连接的媒体地址（{address}）',
    'en-US': "TCP active: the device's SDP answer gave no media address to connect to ({address})",
  },
  gbTcpActiveTimeout: { 'zh-CN': 'TCP主动模式：{seconds}秒内无法连接设备的媒体地址 {address}', 'en-US': "TCP active: could not connect to the device's media address {address} within {seconds} s" },
  gbTcpActiveFailed: { 'zh-CN': 'TCP主动模式：连接设备的媒体地址 {address} 失败（{code}）', 'en-US': "TCP active: connection to the device's media address {address} failed ({code})" },
  gbTcpActiveFailedSeeLog: {
    'zh-CN': 'TCP主动模式：连接设备的媒体地址 {address} 失败（详情见服务器日志）',
    'en-US': "TCP active: connection to the device's media address {address} failed (details in the server log)",
  },
  gbMediaSocketError: { 'zh-CN': '媒体连接出错（{where}，{code}）', 'en-US': 'the media connection failed ({where}, {code})' },
  // the same without an OS code: the error's own (English) message is the server log's
  gbMediaSocketFailedSeeLog: { 'zh-CN': '媒体连接出错（{where}，详情见服务器日志）', 'en-US': 'the media connection failed ({where}; details in the server log)' },
  gbTcpClosedByDevice: { 'zh-CN': '设备关闭了TCP媒体连接（{address}）', 'en-US': 'the device closed the TCP media connection ({address})' },
  gbUnplayableStream: { 'zh-CN': '设备发送的 {what} 无法播放（支持 H.264、H.265、AAC 和 G.711）', 'en-US': 'the device sends {what}, which cannot be played (H.264, H.265, AAC and G.711 can)' },
  gbNotPs: {
    'zh-CN': '{seconds}秒内收到的RTP中没有PS流（{bytes}字节中无包头或PES）：请确认设备按GB28181发送PS（负载类型96）',
    'en-US': 'RTP arrives but holds no MPEG-PS (no pack header or PES in {bytes} bytes within {seconds} s): is the device sending PS (GB28181 payload type 96)?',
  },
  gbNoPictureIn: { 'zh-CN': '收到PS流，但{seconds}秒内未能读出H.264/H.265画面', 'en-US': 'PS arrives but no H.264/H.265 picture could be read within {seconds} s' },
  gbNoKeyframe: { 'zh-CN': '收到PS流，但{seconds}秒内没有带参数集的关键帧', 'en-US': 'PS arrives but no keyframe with its parameter sets came within {seconds} s' },
  gbDownloadWriteFailed: { 'zh-CN': '无法写入下载文件（{code}）', 'en-US': 'cannot write the download ({code})' },
  gbMp4Failed: { 'zh-CN': '无法生成MP4文件（详情见服务器日志）', 'en-US': 'the MP4 could not be made (details in the server log)' },
  gbDownloadCancelled: { 'zh-CN': '下载已取消', 'en-US': 'the download was cancelled' },
  gbDownloadUnwatched: { 'zh-CN': '{seconds}秒内无人查看下载进度，下载已停止', 'en-US': 'nobody followed the download for {seconds} s: it was stopped' },
  gbInviteNoAnswer: {
    'zh-CN': '通道 {channel} 的 INVITE 在{seconds}秒（AckTimeout）内未得到应答，请检查设备是否在线、网络是否可达',
    'en-US': 'no answer to the INVITE for channel {channel} within {seconds} s (AckTimeout): check that it is online and reachable',
  },
  gbInviteRefused: { 'zh-CN': '通道 {channel} 的 INVITE 被拒绝（{status} {phrase}）', 'en-US': 'the INVITE for channel {channel} was refused ({status} {phrase})' },
  gbDeviceBusy: {
    'zh-CN': '设备繁忙，拒绝了通道 {channel} 的 INVITE（{status} {phrase}），{seconds}秒后再向该设备发送 INVITE',
    'en-US': 'the device is busy and refused the INVITE for channel {channel} ({status} {phrase}): it is asked again in {seconds} s',
  },
  gbInviteCancelled: {
    'zh-CN': '通道 {channel} 的 INVITE 在排队期间已取消，未发送给设备',
    'en-US': 'the INVITE for channel {channel} was cancelled while it waited for its turn and was not sent to the device',
  },
  gbUnusableSdp: {
    'zh-CN': '通道 {channel} 的 INVITE 回应中的SDP无法使用（详情见服务器日志）',
    'en-US': 'the SDP answering the INVITE for channel {channel} cannot be used (details in the server log)',
  },
  gbCannotMakeInvite: {
    'zh-CN': '无法组成通道 {channel} 的 INVITE（详情见服务器日志）',
    'en-US': 'cannot make the INVITE for channel {channel} (details in the server log)',
  },
  // stopstream's answer on an always-on channel's main stream (AlwaysOnChannels.hold)
  alwaysOnStopped: {
    'zh-CN': '已停止常开直播：在编辑通道、禁用后再启用、设备重新上线或服务重启之前按需播放（有人观看时打开，无人观看时关闭）',
    'en-US': 'The always-on stream is stopped: it plays on demand (opened for viewers, closed without them) until the channel is edited, disabled and enabled again, its device comes back online, or the server restarts',
  },
  // Why a live stream is not playing: the catalogue reason its source gives beside its own words where
  // it fails (the hub's why), rendered by streamReasonText (stream-reasons.ts); a camera's own phrase
  // comes in through {phrase}.
  streamRefused: { 'zh-CN': '摄像机拒绝连接', 'en-US': 'The camera refused the connection' },
  streamReset: { 'zh-CN': '连接被摄像机重置', 'en-US': 'The camera reset the connection' },
  streamClosed: { 'zh-CN': '摄像机断开了连接', 'en-US': 'The camera closed the connection' },
  streamConnectTimeout: { 'zh-CN': '连接摄像机超时（{ms} 毫秒）', 'en-US': 'The camera did not answer within {ms} ms' },
  streamNoMedia: { 'zh-CN': '{seconds} 秒内没有收到摄像机的视频', 'en-US': 'No video from the camera for {seconds} s' },
  streamUnauthorized: { 'zh-CN': '摄像机拒绝了用户名或密码', 'en-US': 'The camera refused the user name or password' },
  streamAnswered: { 'zh-CN': '摄像机对 {method} 请求回应 {status} {phrase}', 'en-US': 'The camera answered {method} with {status} {phrase}' },
  streamNoPlayableTrack: { 'zh-CN': '摄像机的视频中没有可播放的轨道（支持 H.264、H.265、AAC、G.711）', 'en-US': 'The camera offers no playable track (H.264, H.265, AAC and G.711 can play)' },
  streamAudioEncoderMissing: {
    'zh-CN': '视频正常播放，但没有声音：流的音频为 {codec}，需由 ffmpeg 转为 AAC，而服务器上找不到 ffmpeg',
    'en-US': 'The video plays without sound: the stream’s audio is {codec}, which ffmpeg must turn into AAC, and this server has no ffmpeg',
  },
  streamAudioEncoderFailed: {
    'zh-CN': '视频正常播放，但没有声音：流的 {codec} 音频转为 AAC 失败（ffmpeg 已退出）',
    'en-US': 'The video plays without sound: encoding the stream’s {codec} audio to AAC failed (ffmpeg ended)',
  },
  streamRequestTimeout: { 'zh-CN': '摄像机的 {method} 应答超时（{ms} 毫秒）', 'en-US': 'The camera\'s {method} answer timed out ({ms} ms)' },
  streamBadData: { 'zh-CN': '摄像机发送了无法解析的数据', 'en-US': 'The camera sent data that cannot be read' },
  streamGbOffline: { 'zh-CN': '设备已离线（未注册），设备重新上线后自动恢复', 'en-US': 'The device is offline (not registered); the video comes back when it registers again' },
  streamGbEnded: { 'zh-CN': '设备结束了视频会话', 'en-US': 'The device ended the video session' },
  // always-on.ts lets an unwatched always-on stream go while its device is offline (registered or not)
  streamGbDeviceOffline: { 'zh-CN': '设备已离线，设备重新上线后常开直播自动恢复', 'en-US': 'The device is offline; the always-on stream starts again when it is back online' },
  streamNoBrowserTrack: { 'zh-CN': '该流没有浏览器能播放的轨道（浏览器可播放 H.264、H.265 和 AAC）', 'en-US': 'The stream has no track a browser can play (H.264, H.265 and AAC can)' },
  streamSocketError: { 'zh-CN': '与摄像机的连接出错（{code}）', 'en-US': 'The connection to the camera failed ({code})' },
  streamEnded: { 'zh-CN': '视频源结束了该流', 'en-US': 'The source ended the stream' },
  streamSourceFailed: { 'zh-CN': '视频源出错（详情见服务器日志）', 'en-US': 'The stream source failed (details in the server log)' },
  streamPullFailed: { 'zh-CN': 'ffmpeg 无法读取该流（详情见服务器日志）', 'en-US': 'ffmpeg could not read the stream (details in the server log)' },
  streamTranscodeFailed: { 'zh-CN': '转码失败（详情见服务器日志）', 'en-US': 'The transcoding failed (details in the server log)' },
  streamOriginalClosed: { 'zh-CN': '原始流未打开或已停止', 'en-US': 'The original stream is not open or has stopped' },
  streamOriginalNoVideo: { 'zh-CN': '原始流没有视频', 'en-US': 'The original stream has no video' },
  // A live H.264 leg whose camera came back as H.264 (a changed encoder setting): the player plays the camera's own stream again.
  streamOriginalNotHevc: { 'zh-CN': '摄像机已改为 H.264，无需转码，改为播放原始流', 'en-US': 'The camera now sends H.264: no transcoding needed, its own stream plays again' },
  streamStopped: { 'zh-CN': '直播已停止', 'en-US': 'The live stream stopped' },
  streamStoppedByRequest: { 'zh-CN': '直播已按请求停止', 'en-US': 'The live stream was stopped on request' },
  streamChannelChanged: { 'zh-CN': '通道设置已修改，直播将按新设置重新打开', 'en-US': 'The channel settings changed: the stream opens again with them' },
  streamChannelDeleted: { 'zh-CN': '通道已删除', 'en-US': 'The channel was deleted' },
  streamChannelDisabled: { 'zh-CN': '通道未开启，直播已停止', 'en-US': 'The channel is not enabled: the live stream stopped' },
  streamServerShutdown: { 'zh-CN': '服务器正在关闭', 'en-US': 'The server is shutting down' },
  // Why a channel's CDN push ended or is not running (services/media/cdn.ts, access/rtmp/publisher.ts):
  // the channel list's CdnPush.Reason; a CDN server's own code comes in through {code}, masked.
  cdnNoAnswer: { 'zh-CN': 'CDN 服务器在{ms}毫秒内未应答 {step}', 'en-US': 'the CDN server did not answer {step} within {ms} ms' },
  cdnClosedByServer: { 'zh-CN': 'CDN 服务器关闭了连接', 'en-US': 'the CDN server closed the connection' },
  cdnPublishDropped: {
    'zh-CN': 'CDN 服务器在发布时关闭了连接：推流密钥（或地址）被拒绝',
    'en-US': 'the CDN server closed the connection on publish: the stream key (or the address) was refused',
  },
  cdnClosedBeforeHandshake: { 'zh-CN': 'CDN 服务器在 RTMP 握手前关闭了连接', 'en-US': 'the CDN server closed the connection before the RTMP handshake' },
  cdnSocketError: { 'zh-CN': '连接 CDN 服务器出错（{code}）', 'en-US': 'the connection to the CDN server failed ({code})' },
  cdnNotRtmp: { 'zh-CN': 'CDN 地址上的服务不是 RTMP 服务器', 'en-US': 'the CDN address does not answer as an RTMP server' },
  cdnRefused: { 'zh-CN': 'CDN 服务器拒绝了 {command}（{code}）', 'en-US': 'the CDN server refused {command} ({code})' },
  cdnAuthRequired: {
    'zh-CN': 'CDN 服务器要求登录（{method}），请在推流地址中填写用户名和密码',
    'en-US': 'the CDN server asks for a login ({method}): put the user name and password in the push address',
  },
  cdnAuthFailed: { 'zh-CN': 'CDN 服务器拒绝了用户名或密码（{method}）', 'en-US': 'the CDN server refused the user name or password ({method})' },
  cdnAuthUnsupported: { 'zh-CN': '不支持 CDN 服务器要求的登录方式（{method}）', 'en-US': 'the login the CDN server asks for ({method}) is not supported' },
  cdnStalled: { 'zh-CN': 'CDN 服务器{seconds}秒内没有接收数据', 'en-US': 'the CDN server took nothing for {seconds} s' },
  cdnChannelUnavailable: { 'zh-CN': '通道的视频无法打开', 'en-US': 'the channel stream could not be opened' },
  cdnChannelStopped: { 'zh-CN': '通道的视频已停止', 'en-US': 'the channel stream stopped' },
  cdnNotRtmpUrl: { 'zh-CN': 'CDN 地址须为 rtmp:// 或 rtmps:// 地址', 'en-US': 'the CDN address must be an rtmp:// or rtmps:// URL' },
  // An rtmps:// server's certificate refused (access/rtmp/tls-connect.ts): the CDN push's and the stream checker's reason.
  tlsCertExpired: { 'zh-CN': '服务器的 TLS 证书已过期', 'en-US': "the server's TLS certificate has expired" },
  tlsCertNotYetValid: { 'zh-CN': '服务器的 TLS 证书尚未生效（请检查本机时间）', 'en-US': "the server's TLS certificate is not valid yet (check this server's clock)" },
  tlsCertSelfSigned: {
    'zh-CN': '服务器的 TLS 证书是自签名证书，不受信任（可用 RTMPS_CA_FILE 信任它）',
    'en-US': "the server's TLS certificate is self-signed and not trusted (RTMPS_CA_FILE can trust it)",
  },
  tlsCertUntrusted: {
    'zh-CN': '服务器的 TLS 证书不是受信任的证书机构签发的（私有 CA 可用 RTMPS_CA_FILE 信任）',
    'en-US': "the server's TLS certificate is not from a trusted authority (a private CA can be trusted with RTMPS_CA_FILE)",
  },
  tlsCertWrongHost: { 'zh-CN': '服务器的 TLS 证书不属于 {host}（证书上的名称：{names}）', 'en-US': "the server's TLS certificate is not for {host} (it names {names})" },
  tlsCertRejected: { 'zh-CN': '服务器的 TLS 证书未通过校验（{code}）', 'en-US': "the server's TLS certificate failed verification ({code})" },
  // An https:// stream's other server (a redirect's, a segment host's) has no pin of its own (access/tls/https-trust.ts).
  tlsCertNotOwnHost: {
    'zh-CN': '{host} 的 TLS 证书不是受信任的证书机构签发的（自签名或未知机构）；只有通道地址本身的服务器可在首次连接时记录证书，私有 CA 可用 HTTPS_CA_FILE 信任',
    'en-US': "{host}'s TLS certificate is not from a trusted authority (self-signed or an unknown issuer); only the channel address's own server is trusted at its first connection, a private CA can be trusted with HTTPS_CA_FILE",
  },
  // An rtsps:// camera's certificate is pinned at first use (access/tls/rtsps-trust.ts); another one later is refused.
  tlsCertChanged: {
    'zh-CN': '摄像机的 TLS 证书与首次连接时记录的不同（现为 SHA-256 {presented}，记录为 {pinned}），已拒绝连接；如确为更换了证书，请管理员在通道编辑页核对指纹后信任新证书',
    'en-US': "the camera's TLS certificate is not the one pinned at the first connection (now SHA-256 {presented}, pinned {pinned}): refused; if it was replaced on purpose, an administrator checks the fingerprint and trusts the new certificate on the channel's edit page",
  },
  // The same for an https:// stream server (access/tls/https-trust.ts).
  tlsServerCertChanged: {
    'zh-CN': '流服务器的 TLS 证书与首次连接时记录的不同（现为 SHA-256 {presented}，记录为 {pinned}），已拒绝连接；如确为更换了证书，请管理员在通道编辑页核对指纹后信任新证书',
    'en-US': "the stream server's TLS certificate is not the one pinned at the first connection (now SHA-256 {presented}, pinned {pinned}): refused; if it was replaced on purpose, an administrator checks the fingerprint and trusts the new certificate on the channel's edit page",
  },
} as const satisfies Record<string, Record<Lang, string>>;

export type ReasonKey = keyof typeof REASONS;

/** A reason from the catalogue with its {vars}, rendered in the answer's language when it is sent. */
export interface Reason {
  key: ReasonKey;
  vars?: Record<string, string | number>;
}

export const isReasonKey = (s: string): s is ReasonKey => Object.hasOwn(REASONS, s);

/** The text of a message in a language, with {name} placeholders filled. */
export function message(key: MessageKey, lang: Lang = 'zh-CN', vars: Record<string, string | number> = {}): string {
  return fill(MESSAGES[key][lang] ?? MESSAGES[key]['zh-CN'], vars);
}

/** The name of a subject in a language ("通道 1:1"), with its {id}, {from}, {to} filled. */
export function subject(key: SubjectKey, lang: Lang = 'zh-CN', vars: Record<string, string | number> = {}): string {
  return fill(SUBJECTS[key][lang] ?? SUBJECTS[key]['zh-CN'], vars);
}

/** The text of a reason in a language, with its {vars} filled. */
export function reason(key: ReasonKey, lang: Lang = 'zh-CN', vars: Record<string, string | number> = {}): string {
  return fill(REASONS[key][lang] ?? REASONS[key]['zh-CN'], vars);
}

/** A Chinese character or punctuation mark (CJK symbols, full-width forms). */
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Fills {vars} in. A space the text puts beside a placeholder is there for a value in Latin letters or
 * digits ("通道 {id}" → 通道 1:1); between a Chinese word of the text and a value that begins (or ends)
 * with a Chinese character it is dropped: 录像计划夜间 Night 154已存在, not 录像计划 夜间 Night 154已存在.
 * Spaces inside a value, between two values and in English text stay.
 */
function fill(text: string, vars: Record<string, string | number>): string {
  // Literals at even indexes, placeholder names at odd ones.
  const parts = text.split(/\{(\w+)\}/);
  const value = (i: number) => (parts[i] in vars ? String(vars[parts[i]]) : `{${parts[i]}}`);
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    if (i % 2) {
      out += value(i);
      continue;
    }
    let lit = parts[i];
    if (i > 0 && lit.startsWith(' ') && CJK.test(lit.charAt(1)) && CJK.test(Array.from(value(i - 1)).at(-1) ?? '')) lit = lit.slice(1);
    if (i < parts.length - 1 && lit.endsWith(' ') && CJK.test(lit.charAt(lit.length - 2)) && CJK.test(String.fromCodePoint(value(i + 1).codePointAt(0) ?? 32))) lit = lit.slice(0, -1);
    out += lit;
  }
  return out;
}

/** Accept-Language to one of the two languages; Chinese unless English is asked for first. */
export function pickLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'zh-CN';
  return acceptLanguage.trim().toLowerCase().startsWith('en') ? 'en-US' : 'zh-CN';
}
