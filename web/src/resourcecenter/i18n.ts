/** Texts of the blade-resource screens (object storage, SMS, attachments). */
export const resourceZh = {
  upload: '上传文件',
  uploading: '上传中…',
  uploaded: '上传成功',
  download: '下载',
  uploadTip: '图片、PDF、Office 文档或文本文件,不超过 10MB',
};

export const resourceEn: typeof resourceZh = {
  upload: 'Upload a file',
  uploading: 'Uploading…',
  uploaded: 'Uploaded',
  download: 'Download',
  uploadTip: 'Images, PDF, Office documents or text files, at most 10MB',
};
