package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostPlatformTest {

    @Test
    void thisHostsPlatformIsJavacppsNameForOsArchAndItsLibrariesAreOnTheClassPath() {
        HostPlatform here = HostPlatform.current();
        assertThat(here.osArch()).isEqualTo(System.getProperty("os.arch"));
        assertThat(here.platform()).isIn("linux-x86_64", "linux-arm64");
        assertThat(here.nativesCarried()).isTrue();
        assertThat(here.describe()).isEqualTo(here.platform() + " (os.arch " + here.osArch()
                + "), JNI libraries in this jar: yes");
    }

    @Test
    void aPlatformWhoseLibrariesAreAbsentIsSaidSo() {
        HostPlatform ppc = HostPlatform.of("ppc64le", "linux-ppc64le", getClass().getClassLoader());
        assertThat(ppc.nativesCarried()).isFalse();
        assertThat(ppc.describe()).isEqualTo("linux-ppc64le (os.arch ppc64le), JNI libraries in this jar: no");
    }
}
