set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
OUT=$OUT timeout 270 bash bench/gpu_check.sh build-exp scaling > $OUT/scaling_out.txt 2>&1; echo "scaling rc $?"; cat $OUT/scaling.csv
