package org.ncclharness.harness;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.CostModelVisitor;
import org.ncclharness.calibration.model.SingleTierModel;

/**
 * Which kind of cost model a caller holds is asked in one place: {@link CostModel#accept} with a
 * {@link CostModelVisitor}, double dispatch with no {@code instanceof} at all. So no main code, in either module,
 * tests a value against a {@link CostModel} type.
 */
class CostModelArchitectureTest {

    private static final JavaClasses CLASSES = MainClasses.all();

    private static final ArchRule NO_INSTANCEOF_ON_A_COST_MODEL = classes()
            .should(new ArchCondition<JavaClass>("test no value against a CostModel type with instanceof (ask"
                    + " CostModel#accept with a CostModelVisitor)") {
                @Override
                public void check(JavaClass c, ConditionEvents events) {
                    for (JavaCodeUnit u : c.getCodeUnits()) {
                        for (InstanceofCheck i : u.getInstanceofChecks()) {
                            if (i.getRawType().isAssignableTo(CostModel.class)) {
                                events.add(SimpleConditionEvent.violated(i, u.getFullName() + " tests instanceof "
                                        + i.getRawType().getName() + " " + i.getSourceCodeLocation()));
                            }
                        }
                    }
                }
            });

    @Test
    void noMainCodeAsksWhichCostModelItHoldsButThroughTheVisitor() {
        NO_INSTANCEOF_ON_A_COST_MODEL.check(CLASSES);
    }

    @Test
    void theRuleFindsAnInstanceofOnACostModel() {
        JavaClasses offender = new ClassFileImporter().importClasses(Offender.class, SingleTierModel.class,
                CostModel.class);
        assertThatThrownBy(() -> NO_INSTANCEOF_ON_A_COST_MODEL.check(offender)).isInstanceOf(AssertionError.class)
                .hasMessageContaining(Offender.class.getName() + ".isSingleTier")
                .hasMessageContaining("instanceof " + SingleTierModel.class.getName());
    }

    /** What the rule forbids. */
    static final class Offender {
        static boolean isSingleTier(CostModel m) {
            return m instanceof SingleTierModel;
        }
    }
}
