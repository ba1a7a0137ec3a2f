/** Chinese names with their pinyin, for the demo staff's names and login names. */
export const SURNAMES: ReadonlyArray<readonly [string, string]> = [
  ['王', 'wang'], ['李', 'li'], ['张', 'zhang'], ['刘', 'liu'], ['陈', 'chen'], ['杨', 'yang'], ['赵', 'zhao'], ['黄', 'huang'],
  ['周', 'zhou'], ['吴', 'wu'], ['徐', 'xu'], ['孙', 'sun'], ['胡', 'hu'], ['朱', 'zhu'], ['高', 'gao'], ['林', 'lin'],
  ['何', 'he'], ['郭', 'guo'], ['马', 'ma'], ['罗', 'luo'], ['梁', 'liang'], ['宋', 'song'], ['郑', 'zheng'], ['谢', 'xie'],
  ['韩', 'han'], ['唐', 'tang'], ['冯', 'feng'], ['于', 'yu'], ['董', 'dong'], ['萧', 'xiao'], ['程', 'cheng'], ['曹', 'cao'],
];

export const GIVEN_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['秀英', 'xiuying'], ['敏', 'min'], ['静', 'jing'], ['丽', 'li'], ['强', 'qiang'],
  ['磊', 'lei'], ['军', 'jun'], ['洋', 'yang'], ['勇', 'yong'], ['艳', 'yan'], ['杰', 'jie'], ['娟', 'juan'], ['涛', 'tao'],
  ['明', 'ming'], ['超', 'chao'], ['秀兰', 'xiulan'], ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'], ['桂英', 'guiying'], ['建华', 'jianhua'],
  ['志强', 'zhiqiang'], ['海燕', 'haiyan'], ['晓东', 'xiaodong'], ['文博', 'wenbo'], ['子涵', 'zihan'], ['思远', 'siyuan'], ['雨婷', 'yuting'], ['浩然', 'haoran'],
  ['嘉怡', 'jiayi'], ['俊杰', 'junjie'], ['婷婷', 'tingting'], ['国庆', 'guoqing'], ['红梅', 'hongmei'], ['立新', 'lixin'], ['玉兰', 'yulan'], ['振华', 'zhenhua'],
];
